import { Avatar, Group, Text, UnstyledButton } from "@mantine/core";
import { IconChevronDown, IconUser } from "@tabler/icons-react";
import type { ComponentPropsWithRef } from "react";
import { useTranslation } from "react-i18next";
import { personalData } from "../../../lib/personal-data.ts";

/**
 * The account menu's button: the same before and after its menu's code is in. Shared by the header's corner
 * (user-menu.tsx, first load) and the menu it loads on demand (account-menu.tsx), so neither imports the other.
 */
export function AccountButton({ name, ...props }: ComponentPropsWithRef<"button"> & { name: string }) {
  const { t } = useTranslation("account");
  return (
    <UnstyledButton
      aria-label={t("menu.label", { name })}
      {...personalData}
      px={6}
      py={4}
      style={{ borderRadius: 6 }}
      {...props}
    >
      <Group gap={8} wrap="nowrap">
        {/* An icon, not initials: text in the button that is not in its name fails WCAG 2.5.3 (label in name). */}
        <Avatar size={28} radius="xl" color="blue" variant="filled" aria-hidden>
          <IconUser size={16} />
        </Avatar>
        <Text fz="sm" fw={500} visibleFrom="sm" maw={160} truncate="end">
          {name}
        </Text>
        <IconChevronDown size={14} />
      </Group>
    </UnstyledButton>
  );
}
