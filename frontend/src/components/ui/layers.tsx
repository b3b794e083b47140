import {
  Button,
  Group,
  Drawer as MantineDrawer,
  type DrawerProps as MantineDrawerProps,
  Modal as MantineModal,
  type ModalProps as MantineModalProps,
  Text,
} from "@mantine/core";
import { useEffect, useEffectEvent, useState } from "react";
import { useTranslation } from "react-i18next";

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

export interface ModalProps extends MantineModalProps {
  /**
   * The dialog holds input typed by the user: Escape, the close button or a click outside first asks whether to
   * discard it.
   */
  dirty?: boolean | undefined;
}

/** Mantine's Modal as one layer of the page: Escape closes it only when it is the innermost. */
export function Modal({ dirty = false, opened, onClose, children, ...props }: ModalProps) {
  const [asking, setAsking] = useState(false);
  const close = () => (dirty ? setAsking(true) : onClose());
  useEscapeLayer(opened, close);
  return (
    <>
      <MantineModal {...props} opened={opened} onClose={close} closeOnEscape={false}>
        {children}
      </MantineModal>
      {dirty ? (
        <DiscardConfirm
          opened={opened && asking}
          onKeep={() => setAsking(false)}
          onDiscard={() => {
            setAsking(false);
            onClose();
          }}
        />
      ) : null}
    </>
  );
}

/** Mantine's Drawer as one layer of the page: Escape closes it only when no dialog or calendar is open above it. */
export function Drawer({ opened, onClose, children, ...props }: MantineDrawerProps) {
  useEscapeLayer(opened, onClose);
  return (
    <MantineDrawer {...props} opened={opened} onClose={onClose} closeOnEscape={false}>
      {children}
    </MantineDrawer>
  );
}

/** "Discard what you typed?": Escape or "Keep editing" goes back to the dialog, "Discard" closes it. */
function DiscardConfirm({
  opened,
  onKeep,
  onDiscard,
}: {
  opened: boolean;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onKeep}
      title={<Text fw={650}>{t("discard.title")}</Text>}
      size="sm"
      withCloseButton={false}
    >
      <Text fz="sm">{t("discard.text")}</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onKeep} data-autofocus>
          {t("discard.keep")}
        </Button>
        <Button color="red" onClick={onDiscard}>
          {t("discard.discard")}
        </Button>
      </Group>
    </Modal>
  );
}
