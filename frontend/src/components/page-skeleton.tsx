import { useTranslation } from "react-i18next";

const block = (height: number, width = "100%") => ({
  height,
  width,
  borderRadius: 8,
  background: "var(--mantine-color-default-border)",
  opacity: 0.6,
});

/**
 * What a signed-in page shows while its session, data and code arrive: the page's outline rather than a blank page.
 * Plain elements with inline styles: it is part of every route's first code (no component library piece added).
 */
export function PageSkeleton() {
  const { t } = useTranslation("page-loading");
  return (
    <div
      role="status"
      aria-busy="true"
      aria-label={t("label")}
      data-testid="page-skeleton"
      style={{ maxWidth: 1480, margin: "0 auto", padding: "16px 24px", display: "grid", gap: 12 }}
    >
      <div style={block(28, "min(280px, 60%)")} />
      <div style={block(96)} />
      {[0, 1, 2, 3, 4].map((row) => (
        <div key={row} style={block(44)} />
      ))}
    </div>
  );
}

/** Shown after a short wait only, and then long enough not to flicker, but never holding a ready page back long. */
export const PENDING = { pendingComponent: PageSkeleton, pendingMs: 150, pendingMinMs: 100 } as const;
