import { Box, Tooltip } from "@mantine/core";

// Only hues whose shade 9 reads on their shade 0 at 4.5:1 (orange, green and yellow do not).
const PALETTE = ["blue", "indigo", "teal", "cyan", "grape", "violet", "pink", "red"];

/** A stable colour per airline code, so the same carrier looks the same in every list. */
function colourOf(code: string): string {
  let hash = 0;
  for (const char of code) hash = (hash * 31 + char.charCodeAt(0)) % 997;
  return PALETTE[hash % PALETTE.length] ?? "blue";
}

/** The airline's two-letter code on its colour: the product shows no third-party logos (CSP: images from self). */
export function CarrierMark({ code, name, size = 30 }: { code: string; name: string; size?: number }) {
  const colour = colourOf(code);
  return (
    <Tooltip label={name} withArrow openDelay={300}>
      <Box
        aria-label={name}
        role="img"
        w={size}
        h={size}
        bg={`light-dark(var(--mantine-color-${colour}-0), var(--mantine-color-dark-6))`}
        c={`light-dark(var(--mantine-color-${colour}-9), var(--mantine-color-${colour}-1))`}
        fz={size * 0.38}
        fw={700}
        bd={`1px solid light-dark(var(--mantine-color-${colour}-2), var(--mantine-color-dark-4))`}
        style={{
          borderRadius: 6,
          display: "grid",
          placeItems: "center",
          flex: "none",
          letterSpacing: "0.02em",
        }}
      >
        {code}
      </Box>
    </Tooltip>
  );
}
