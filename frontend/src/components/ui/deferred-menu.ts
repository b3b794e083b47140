import { type ComponentType, type FocusEvent, type MouseEvent, useRef, useState } from "react";

/** What the user did with the stand-in button before the menu's code arrived. */
export interface MenuIntent {
  /** They clicked it: the menu opens as soon as it mounts. */
  open: boolean;
  /** It had the keyboard focus: the real button takes it over. */
  focus: boolean;
}

export interface DeferredMenuProps {
  intent?: MenuIntent;
}

const loaded = new Map<() => Promise<unknown>, ComponentType<never>>();

/**
 * A header menu whose code (Mantine's Menu, floating-ui, a state machine) is fetched when the user points at,
 * focuses or presses its button rather than with the first page. Until it is in, the caller draws the same button
 * with `trigger`'s handlers; the swap waits while the button is pressed, so no click is lost.
 */
export function useDeferredMenu<P>(load: () => Promise<{ default: ComponentType<P> }>) {
  const [Menu, setMenu] = useState<ComponentType<P> | null>(
    () => (loaded.get(load) as ComponentType<P> | undefined) ?? null,
  );
  const intent = useRef<MenuIntent>({ open: false, focus: false });
  const pressed = useRef(false);
  const arrived = useRef<ComponentType<P> | null>(null);

  const show = () => {
    if (arrived.current && !pressed.current) setMenu(() => arrived.current);
  };
  const start = () => {
    if (arrived.current) return show();
    void load().then((module) => {
      loaded.set(load, module.default as ComponentType<never>);
      arrived.current = module.default;
      show();
    });
  };
  const trigger = {
    onPointerEnter: start,
    onPointerDown: () => {
      pressed.current = true;
      start();
    },
    onFocus: (_event: FocusEvent) => {
      intent.current.focus = true;
      start();
    },
    onBlur: () => {
      intent.current.focus = false;
    },
    onPointerLeave: () => {
      pressed.current = false; // pressed, then released elsewhere: no click follows
      show();
    },
    onClick: (_event: MouseEvent) => {
      pressed.current = false;
      intent.current.open = true;
      start();
    },
  };
  return { Menu, trigger, intent: intent.current };
}
