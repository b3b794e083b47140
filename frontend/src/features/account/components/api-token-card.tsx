import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Stack,
  Text,
  Tooltip,
} from "@mantine/core";
import { IconAlertTriangle, IconCheck, IconCopy, IconKey } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../../components/ui/modal.tsx";
import { useIssueApiToken } from "../api/issue-api-token.ts";
import { SectionCard } from "./section-card.tsx";

/** The API token for the api and extension sources: issued on demand and shown this once. */
export function ApiTokenCard({ hasToken }: { hasToken: boolean }) {
  const { t } = useTranslation("account");
  const issue = useIssueApiToken();
  const [token, setToken] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const generate = () => {
    setConfirming(false);
    issue.mutate(undefined, { onSuccess: setToken });
  };

  return (
    <SectionCard
      title={t("token.title")}
      description={t("token.description")}
      aside={
        <Badge variant="light" color={hasToken ? "teal" : "gray"} radius="sm">
          {hasToken ? t("token.active") : t("token.none")}
        </Badge>
      }
    >
      {token ? (
        <Stack gap="sm">
          <Alert
            variant="light"
            color="yellow"
            icon={<IconAlertTriangle size={18} />}
            title={t("token.once_title")}
          >
            {t("token.once_text")}
          </Alert>
          <Group gap="xs" wrap="nowrap" align="stretch">
            <Code
              block
              data-testid="api-token"
              style={{ flex: 1, wordBreak: "break-all", whiteSpace: "pre-wrap", fontSize: 13 }}
            >
              {token}
            </Code>
            <CopyButton value={token} timeout={2000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t("token.copied") : t("token.copy")} withArrow position="left">
                  <ActionIcon
                    variant={copied ? "filled" : "light"}
                    color={copied ? "teal" : "blue"}
                    size={40}
                    onClick={copy}
                    aria-label={copied ? t("token.copied") : t("token.copy")}
                  >
                    {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        </Stack>
      ) : null}
      <Group justify="flex-end">
        <Button
          variant={hasToken ? "default" : "filled"}
          leftSection={<IconKey size={16} />}
          loading={issue.isPending}
          onClick={() => (hasToken ? setConfirming(true) : generate())}
        >
          {hasToken ? t("token.replace") : t("token.generate")}
        </Button>
      </Group>
      <Modal
        closeButtonProps={{ "aria-label": t("close", { ns: "common" }) }}
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t("token.confirm_title")}
        centered
      >
        <Stack gap="md">
          <Text fz="sm">{t("token.confirm_text")}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t("token.cancel")}
            </Button>
            <Button color="red" onClick={generate}>
              {t("token.confirm")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SectionCard>
  );
}
