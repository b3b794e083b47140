import { Badge, Box, Button } from "@mantine/core";
import { IconAdjustmentsHorizontal } from "@tabler/icons-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Drawer } from "../../../components/ui/drawer.tsx";

/**
 * The results beside their filters on a wide screen; on a phone or a narrow window (issue 27, item 1) the results take
 * the whole width and the filters open in a drawer from a button that says how many are applied. Which of the two
 * shows is the style sheet's choice (styles.css, .skyward-results), so the first paint is already the right one.
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
  const [open, setOpen] = useState(false);
  return (
    <Box className="skyward-results">
      <Box className="skyward-results-filters">{filters}</Box>
      <Box className="skyward-results-filters-button">
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
          {open ? filters : null}
        </Drawer>
      </Box>
      {children}
    </Box>
  );
}
