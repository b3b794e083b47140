import { createTheme } from "@mantine/core";

/** Dense and quiet: agents spend the day on these screens. */
export const theme = createTheme({
  primaryColor: "blue",
  primaryShade: 7,
  defaultRadius: "sm",
  fontFamily:
    'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: "650" },
  components: {
    Button: { defaultProps: { size: "sm" } },
    TextInput: { defaultProps: { size: "sm" } },
  },
});
