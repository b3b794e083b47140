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
import { IconAlertTriangle, IconCheck, IconCopy, IconKey, IconKeyOff } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "../../../components/ui/modal.tsx";
import { formatInstant } from "../../../lib/date-format.ts";
import { useSiteLanguage } from "../../../lib/i18n.ts";
import { apiTokenStatusOptions, useRevokeApiToken } from "../api/api-token.ts";
import { useIssueApiToken } from "../api/issue-api-token.ts";
import { SectionCard } from "./section-card.tsx";

/**
 * The API token for the api and extension sources: issued on demand and shown this once; its last use shown so a
 * forgotten or stolen token stands out, and revocable here (only a signed-in session may issue or revoke one).
 */
export function ApiTokenCard({ hasToken }: { hasToken: boolean }) {
  const { t } = useTranslation("account");
  const language = useSiteLanguage();
  const issue = useIssueApiToken();
  const revoke = useRevokeApiToken();
  const status = useQuery({ ...apiTokenStatusOptions(), enabled: hasToken });
  const [token, setToken] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<"replace" | "revoke" | null>(null);

  const generate = () => {
    setConfirming(null);
    issue.mutate(undefined, { onSuccess: setToken });
  };
  const withdraw = () => {
    setConfirming(null);
    revoke.mutate(undefined, { onSuccess: () => setToken(null) });
  };
  const lastUsed = status.data?.last_used_at;

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
      {hasToken && status.data?.active ? (
        <Text fz="sm" c="dimmed" data-testid="api-token-last-use">
          {lastUsed
            ? t("token.last_used", { when: formatInstant(lastUsed, language) })
            : t("token.never_used")}
        </Text>
      ) : null}
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
      <Group justify="flex-end" gap="sm">
        {hasToken ? (
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconKeyOff size={16} />}
            loading={revoke.isPending}
            onClick={() => setConfirming("revoke")}
          >
            {t("token.revoke")}
          </Button>
        ) : null}
        <Button
          variant={hasToken ? "default" : "filled"}
          leftSection={<IconKey size={16} />}
          loading={issue.isPending}
          onClick={() => (hasToken ? setConfirming("replace") : generate())}
        >
          {hasToken ? t("token.replace") : t("token.generate")}
        </Button>
      </Group>
      <Modal
        closeButtonProps={{ "aria-label": t("close", { ns: "common" }) }}
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming === "revoke" ? t("token.revoke_title") : t("token.confirm_title")}
        centered
      >
        <Stack gap="md">
          <Text fz="sm">{confirming === "revoke" ? t("token.revoke_text") : t("token.confirm_text")}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t("token.cancel")}
            </Button>
            <Button color="red" onClick={confirming === "revoke" ? withdraw : generate}>
              {confirming === "revoke" ? t("token.revoke_confirm") : t("token.confirm")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SectionCard>
  );
}
