import { ActionIcon, Button, Divider, Group, Input, Popover, Stack, Text } from "@mantine/core";
import type { PassengerCounts } from "@skyward/contracts/offers";
import { IconMinus, IconPlus, IconUsers } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { canChangePassengers, type PassengerKind, passengerTotal } from "../machines/search-form.ts";

const KINDS: readonly PassengerKind[] = ["adults", "children", "infants"];

/** How many adults, children and infants travel: 1-9 seats, an infant per adult at most. */
export function PassengersPicker({
  value,
  onChange,
  label,
}: {
  value: PassengerCounts;
  onChange: (value: PassengerCounts) => void;
  label: string;
}) {
  const { t } = useTranslation("search");
  const change = (kind: PassengerKind, delta: 1 | -1) => {
    if (canChangePassengers(value, kind, delta)) onChange({ ...value, [kind]: value[kind] + delta });
  };
  return (
    <Popover position="bottom-end" shadow="md" width={300} trapFocus withinPortal>
      <Input.Wrapper label={label}>
        <Popover.Target>
          <Button
            variant="default"
            fullWidth
            h={36}
            leftSection={<IconUsers size={15} />}
            justify="flex-start"
            fw={400}
            aria-label={`${label}: ${t("passengers.summary", { count: passengerTotal(value) })}`}
          >
            {t("passengers.summary", { count: passengerTotal(value) })}
          </Button>
        </Popover.Target>
      </Input.Wrapper>
      <Popover.Dropdown p="sm">
        <Stack gap="xs">
          {KINDS.map((kind) => (
            <Group key={kind} justify="space-between" wrap="nowrap">
              <div>
                <Text fz="sm" fw={500}>
                  {t(`passengers.${kind}`)}
                </Text>
                <Text fz="xs" c="dimmed">
                  {t(`passengers.${kind}_hint`)}
                </Text>
              </div>
              <Group gap={8} wrap="nowrap">
                <ActionIcon
                  variant="default"
                  radius="xl"
                  aria-label={t(`passengers.fewer_${kind}`)}
                  disabled={!canChangePassengers(value, kind, -1)}
                  onClick={() => change(kind, -1)}
                >
                  <IconMinus size={14} />
                </ActionIcon>
                <Text w={18} ta="center" fw={600} aria-live="polite" data-testid={`count-${kind}`}>
                  {value[kind]}
                </Text>
                <ActionIcon
                  variant="default"
                  radius="xl"
                  aria-label={t(`passengers.more_${kind}`)}
                  disabled={!canChangePassengers(value, kind, 1)}
                  onClick={() => change(kind, 1)}
                >
                  <IconPlus size={14} />
                </ActionIcon>
              </Group>
            </Group>
          ))}
          <Divider />
          <Text fz="xs" c="dimmed">
            {t("passengers.limits")}
          </Text>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
