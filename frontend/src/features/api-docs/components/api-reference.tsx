import {
  Alert,
  Anchor,
  Badge,
  Code,
  Container,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Operation, openApiQueryOptions } from "../api/openapi.ts";
import { SchemaView } from "./schema-view.tsx";

const METHOD_COLORS: Record<string, string> = {
  get: "blue",
  post: "green",
  put: "orange",
  patch: "grape",
  delete: "red",
};

interface Entry {
  method: string;
  path: string;
  op: Operation;
}

/**
 * A `<details>` whose content is rendered once it is first opened: the answers' schemas of every operation, all in
 * the page, made a DOM of 62,780 elements (7.5 MB of HTML) of which 56,227 sat in closed answers, for the browser to
 * build on every visit and an accessibility check to walk in 19 s.
 */
function LazyDetails({ summary, children }: { summary: ReactNode; children: () => ReactNode }) {
  const [opened, setOpened] = useState(false);
  return (
    <details onToggle={(event) => event.currentTarget.open && setOpened(true)}>
      <summary>{summary}</summary>
      {opened && children()}
    </details>
  );
}

function OperationCard({ method, path, op }: Entry) {
  const { t } = useTranslation("audit");
  const body = op.requestBody?.content["application/json"]?.schema;
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      id={op.operationId}
      component="section"
      aria-labelledby={`${op.operationId}-title`}
    >
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap" align="baseline">
          <Badge color={METHOD_COLORS[method] ?? "gray"} variant="light" w={70}>
            {method.toUpperCase()}
          </Badge>
          <Title order={3} fz="md" id={`${op.operationId}-title`} style={{ wordBreak: "break-all" }}>
            <Code fz="sm">{path}</Code>
          </Title>
          {op.security?.length === 0 && (
            <Badge variant="light" color="gray">
              {t("docs.public")}
            </Badge>
          )}
        </Group>
        <Text fz="sm">{op.summary}</Text>
        {op.parameters && op.parameters.length > 0 && (
          <>
            <Title order={4} fz="sm">
              {t("docs.parameters")}
            </Title>
            <Table fz="xs" withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("docs.name")}</Table.Th>
                  <Table.Th>{t("docs.in")}</Table.Th>
                  <Table.Th>{t("docs.schema")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {op.parameters.map((p) => (
                  <Table.Tr key={`${p.in}:${p.name}`}>
                    <Table.Td>
                      <Code>{p.name}</Code>{" "}
                      {p.required && (
                        <Badge size="xs" variant="light" color="red">
                          {t("docs.required")}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{t(`docs.locations.${p.in}`)}</Table.Td>
                    <Table.Td>
                      <SchemaView schema={p.schema} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
        {body && (
          <>
            <Title order={4} fz="sm">
              {t("docs.request_body")}
            </Title>
            <SchemaView schema={body} />
          </>
        )}
        <Title order={4} fz="sm">
          {t("docs.responses")}
        </Title>
        {Object.entries(op.responses).map(([status, response]) => (
          <LazyDetails
            key={status}
            summary={
              <>
                <Badge size="sm" variant="light" color={status.startsWith("2") ? "green" : "gray"}>
                  {status}
                </Badge>{" "}
                <Text span fz="sm">
                  {response.description}
                </Text>
              </>
            }
          >
            {() => (
              <>
                {Object.entries(response.headers ?? {}).map(([name, header]) => (
                  <Text key={name} fz="xs">
                    {t("docs.header")} <Code>{name}</Code> {header.description}
                  </Text>
                ))}
                {response.content?.["application/json"] && (
                  <SchemaView schema={response.content["application/json"].schema} />
                )}
              </>
            )}
          </LazyDetails>
        ))}
      </Stack>
    </Paper>
  );
}

/**
 * The reference of the public API, rendered here from the served /openapi.json (nothing fetched from elsewhere):
 * the operations by tag, each with its parameters, request body and answers.
 */
export function ApiReference() {
  const { t } = useTranslation("audit");
  const document = useQuery(openApiQueryOptions());
  const doc = document.data;
  const entries: Entry[] = doc
    ? Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ method, path, op })),
      )
    : [];
  const tags = doc?.tags?.map((tag) => tag.name) ?? [...new Set(entries.flatMap((e) => e.op.tags))];
  return (
    <Container fluid px="lg" py="md" maw={1100}>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={1} fz={22}>
            {t("docs.title")}
          </Title>
          <Text c="dimmed" fz="sm">
            {t("docs.lead")}
          </Text>
          <Text fz="sm">
            {t("docs.token")} <Code>Authorization: Bearer …</Code>
          </Text>
          <Text fz="sm">{t("docs.limits")}</Text>
          <Anchor href="/openapi.json" fz="sm" target="_blank">
            {t("docs.download")}
          </Anchor>
        </Stack>
        {document.isPending && <Loader size="sm" aria-label={t("docs.loading")} />}
        {document.error && <Alert color="red">{t("docs.failed")}</Alert>}
        {doc && (
          <nav aria-label={t("docs.contents")}>
            <Group gap="md" align="flex-start">
              {tags.map((tag) => (
                <Stack key={tag} gap={2}>
                  <Text fw={600} fz="sm">
                    {tag}
                  </Text>
                  {entries
                    .filter((e) => e.op.tags.includes(tag))
                    .map((e) => (
                      <Anchor key={e.op.operationId} href={`#${e.op.operationId}`} fz="xs">
                        {e.method.toUpperCase()} {e.path}
                      </Anchor>
                    ))}
                </Stack>
              ))}
            </Group>
          </nav>
        )}
        {tags.map((tag) => (
          <Stack key={tag} gap="sm">
            <Title order={2} fz="lg">
              {tag}
            </Title>
            {entries
              .filter((e) => e.op.tags.includes(tag))
              .map((e) => (
                <OperationCard key={e.op.operationId} {...e} />
              ))}
          </Stack>
        ))}
      </Stack>
    </Container>
  );
}
