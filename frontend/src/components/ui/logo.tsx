import { Group, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** The Skyward mark: a paper plane climbing out of a rounded square, with the word mark beside it. */
export function Logo({ size = 28 }: { size?: number }) {
  const { t } = useTranslation();
  return (
    <Group gap={8} wrap="nowrap">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="var(--mantine-color-blue-7)" />
        <path d="M6.5 16.8 25.5 8.5l-6.2 16.3-3.6-6.1-9.2-1.9Z" fill="#fff" />
        <path
          d="m15.7 18.7 4.4-4.9"
          stroke="var(--mantine-color-blue-7)"
          strokeWidth="1.5"
          strokeLinecap="round"
        />
      </svg>
      <Text
        component="span"
        fw={700}
        fz={19}
        lh={1}
        c="var(--mantine-color-bright)"
        style={{ letterSpacing: "-0.02em" }}
      >
        {t("app_name")}
      </Text>
    </Group>
  );
}
