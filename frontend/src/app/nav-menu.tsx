import { Menu } from "@mantine/core";
import { Link } from "@tanstack/react-router";
import { MenuButton, type NavItem } from "./menu-button.tsx";

/** The navigation's screens that do not fit the header (loaded by ./main-nav.tsx when some do not). */
export default function NavMenu({
  items,
  compact,
  isActive,
}: {
  items: NavItem[];
  compact: boolean;
  isActive: (to: string) => boolean;
}) {
  // No focus placeholder: a role="presentation" element with a tabindex fails axe (aria-required-children).
  return (
    <Menu position="bottom-start" shadow="md" withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <MenuButton compact={compact} active={items.some((item) => isActive(item.to))} />
      </Menu.Target>
      <Menu.Dropdown>
        {items.map((item) => (
          <Menu.Item
            key={item.to}
            component={Link}
            to={item.to}
            leftSection={item.icon}
            fw={isActive(item.to) ? 600 : undefined}
            aria-current={isActive(item.to) ? "page" : undefined}
          >
            {item.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
