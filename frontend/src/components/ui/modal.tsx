import {
  Button,
  Group,
  Modal as MantineModal,
  type ModalProps as MantineModalProps,
  Text,
} from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useEscapeLayer } from "./layers.ts";

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
