import { Kbd, Table, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Modal } from "../components/ui/modal.tsx";

/** The keys and what each does, in the order an agent meets them. */
export const SHORTCUTS = [
  { keys: ["/"], action: "search" },
  { keys: ["n"], action: "new_search" },
  { keys: ["r"], action: "recent_searches" },
  { keys: ["Alt + R"], action: "recent_menu" },
  { keys: ["Alt + T"], action: "recent_travellers" },
  { keys: ["b"], action: "bookings" },
  { keys: ["j"], action: "next" },
  { keys: ["k"], action: "previous" },
  { keys: ["o", "Enter"], action: "open" },
  { keys: ["?"], action: "help" },
] as const;

/** `?`: the keyboard shortcuts, listed. */
export default function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={<Text fw={650}>{t("shortcuts.title")}</Text>}
      size="md"
      closeButtonProps={{ "aria-label": t("close") }}
    >
      <Text fz="sm" c="dimmed" mb="sm">
        {t("shortcuts.lead")}
      </Text>
      <Table fz="sm" verticalSpacing={6} aria-label={t("shortcuts.title")}>
        <Table.Tbody>
          {SHORTCUTS.map((shortcut) => (
            <Table.Tr key={shortcut.action}>
              <Table.Td w={110}>
                {shortcut.keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 ? ` ${t("shortcuts.or")} ` : null}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </Table.Td>
              <Table.Td>{t(`shortcuts.actions.${shortcut.action}`)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
