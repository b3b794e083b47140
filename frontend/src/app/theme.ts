import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  type MantineColorsTuple,
} from "@mantine/core";

/** Mantine's palette with a darker shade 9, the text colour of light badges and alerts, so it reads at 4.5:1. */
const deeper = (name: "orange" | "yellow" | "teal" | "green", shade9: string): MantineColorsTuple => {
  const [s0, s1, s2, s3, s4, s5, s6, s7, s8] = DEFAULT_THEME.colors[name];
  return [s0, s1, s2, s3, s4, s5, s6, s7, s8, shade9];
};

/**
 * Dense and quiet: agents spend the day on these screens. Shades are chosen for WCAG AA contrast (4.5:1 for text) in
 * the light and the dark scheme: filled buttons and links use shade 8 of blue, not Mantine's 6.
 */
export const theme = createTheme({
  primaryColor: "blue",
  colors: {
    orange: deeper("orange", "#9c3d00"),
    yellow: deeper("yellow", "#7a5000"),
    teal: deeper("teal", "#066b4d"),
    green: deeper("green", "#1f7a33"),
  },
  primaryShade: { light: 8, dark: 8 },
  // Text on a filled colour is black or white, whichever reads (yellow and orange badges take black).
  autoContrast: true,
  luminanceThreshold: 0.3,
  // Keyboard focus is always drawn; a mouse click does not leave a ring.
  focusRing: "auto",
  defaultRadius: "sm",
  fontFamily:
    'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: "650" },
  components: {
    Button: { defaultProps: { size: "sm" } },
    TextInput: { defaultProps: { size: "sm" } },
    // A spinner is a live status: the role lets it carry the "Loading" name Mantine gives it (a bare span may not).
    Loader: { defaultProps: { role: "status" } },
  },
});

/**
 * Mantine's secondary text, error text and links fall under 4.5:1 on its own backgrounds (gray 6 on white is 3.3:1,
 * dark 2 on dark 7 is 4.0:1); these keep every one of them at AA on the body, card and gray-0 surfaces.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {
    // The page header's height; the main area fills the rest of the viewport below it.
    "--skyward-header-height": "56px",
    // A surface a step off the body (table heads, panels, hints), right in either scheme.
    "--skyward-surface": "light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-6))",
    "--skyward-surface-strong": "light-dark(var(--mantine-color-gray-1), var(--mantine-color-dark-5))",
    "--skyward-selected": "light-dark(var(--mantine-color-blue-0), rgba(25, 113, 194, 0.25))",
    "--skyward-warning-surface": "light-dark(var(--mantine-color-yellow-0), rgba(250, 176, 5, 0.12))",
    "--skyward-border": "light-dark(var(--mantine-color-gray-3), var(--mantine-color-dark-4))",
    "--skyward-warning-text": "light-dark(#a34100, var(--mantine-color-orange-4))",
    "--skyward-success-text": "light-dark(var(--mantine-color-teal-9), var(--mantine-color-teal-4))",
  },
  light: {
    "--mantine-color-dimmed": "#5f6770",
    "--mantine-color-error": "var(--mantine-color-red-9)",
    "--mantine-color-anchor": "var(--mantine-color-blue-8)",
    "--mantine-color-placeholder": "var(--mantine-color-gray-6)",
    // Subtle and light buttons under the pointer: blue 9 text reads 4.9:1 on blue 1 (4.0:1 on Mantine's hover).
    "--mantine-color-blue-light-hover": "var(--mantine-color-blue-1)",
  },
  dark: {
    "--mantine-color-dimmed": "#a6a6a6",
    "--mantine-color-error": "var(--mantine-color-red-4)",
    "--mantine-color-anchor": "var(--mantine-color-blue-3)",
  },
});
