import { useEffect, useEffectEvent } from "react";

/**
 * Escape closes the innermost layer only. Mantine's modals and drawers each close on any Escape pressed in the
 * window, so one Escape in a dialog opened from the booking drawer (or in a calendar inside that dialog) closed them
 * all. Here every open layer (a dialog, a drawer, a field's calendar) is stacked in the order it opened, and one
 * listener hands Escape to the top one.
 */
const layers: { escape: () => void }[] = [];
let listening = false;

function onEscape(event: KeyboardEvent): void {
  if (event.key !== "Escape" || event.isComposing) return;
  // A select's or a menu's list open on the focused field closes first, by itself (Mantine marks its target).
  const target = event.target instanceof Element ? event.target : null;
  if (target?.getAttribute("data-mantine-stop-propagation") === "true") return;
  layers.at(-1)?.escape();
}

/** Puts a layer on the stack while `active`; Escape calls `onEscape` of the top layer only. */
export function useEscapeLayer(active: boolean, onEscapeKey: () => void): void {
  const handle = useEffectEvent(onEscapeKey);
  useEffect(() => {
    if (!active) return;
    const layer = { escape: () => handle() };
    layers.push(layer);
    if (!listening) {
      // In the capture phase, before the page's own handlers: the layer decides, not whichever listened first.
      window.addEventListener("keydown", onEscape, { capture: true });
      listening = true;
    }
    return () => {
      const at = layers.indexOf(layer);
      if (at >= 0) layers.splice(at, 1);
    };
  }, [active]);
}
