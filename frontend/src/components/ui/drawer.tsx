import { Drawer as MantineDrawer, type DrawerProps as MantineDrawerProps } from "@mantine/core";
import { useEscapeLayer } from "./layers.ts";

/** Mantine's Drawer as one layer of the page: Escape closes it only when no dialog or calendar is open above it. */
export function Drawer({ opened, onClose, children, ...props }: MantineDrawerProps) {
  useEscapeLayer(opened, onClose);
  return (
    <MantineDrawer {...props} opened={opened} onClose={onClose} closeOnEscape={false}>
      {children}
    </MantineDrawer>
  );
}
