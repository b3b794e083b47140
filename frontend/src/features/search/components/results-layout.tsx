import { Badge, Box, Button, Stack } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconAdjustmentsHorizontal } from "@tabler/icons-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Drawer } from "../../../components/ui/drawer.tsx";

/**
 * The results beside their filters on a wide screen; on a phone or a narrow window (issue 27, item 1) the results take
 * the whole width and the filters open in a drawer from a button that says how many are applied.
 */
export function ResultsLayout({
  filters,
  applied,
  children,
}: {
  filters: ReactNode;
  applied: number;
  children: ReactNode;
}) {
  const { t } = useTranslation("search");
  const { t: tc } = useTranslation();
  const wide = useMediaQuery("(min-width: 62em)", true);
  const [open, setOpen] = useState(false);
  if (wide)
    return (
      <Box
        style={{ display: "grid", gridTemplateColumns: "248px minmax(0, 1fr)", gap: 16, alignItems: "start" }}
      >
        {filters}
        {children}
      </Box>
    );
  return (
    <Stack gap="sm">
      <Button
        variant="default"
        size="sm"
        leftSection={<IconAdjustmentsHorizontal size={16} />}
        rightSection={
          applied > 0 ? (
            <Badge size="sm" circle>
              {applied}
            </Badge>
          ) : null
        }
        onClick={() => setOpen(true)}
        style={{ alignSelf: "flex-start" }}
        aria-haspopup="dialog"
      >
        {t("filters.title")}
      </Button>
      <Drawer
        opened={open}
        onClose={() => setOpen(false)}
        title={t("filters.title")}
        size="min(100%, 340px)"
        closeButtonProps={{ "aria-label": tc("close") }}
      >
        {filters}
      </Drawer>
      {children}
    </Stack>
  );
}
