import { Card, Loader, Table, type TableTdProps, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { LoadFailed, type Reloadable } from "./load-failed.tsx";
import { type Column, type PageLabels, Pages } from "./ui/data-table.tsx";

/** One column of a history panel: its header and cell, and the cell's own props (a monospace id, no wrapping). */
export interface HistoryColumn<Row> extends Omit<Column<Row>, "sortValue"> {
  td?: TableTdProps;
}

/** A page of history as the server answers it (`{data, meta: {total}}`), through react-query; a failure with
 * `refetch` is said with a Retry. */
export interface HistoryQuery<Row> extends Partial<Omit<Reloadable, "isError">> {
  isPending: boolean;
  isError: boolean;
  data?: { data: readonly Row[]; meta: { total: number } } | undefined;
}

export interface HistoryPanelProps<Row extends { event_id: string }> {
  /** The heading's id, which names the section. */
  id: string;
  heading: string;
  history: HistoryQuery<Row>;
  columns: readonly HistoryColumn<Row>[];
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** `unavailable`, when given, is said when the page failed to load; without it a failure reads as empty. */
  labels: { loading: string; empty: string; unavailable?: string } & PageLabels;
  minWidth: number;
  /** Striped rows (the channels' history), or rows highlighted under the pointer. */
  striped?: boolean;
  /** Forms and filters above the list. */
  children?: ReactNode;
}

/**
 * A history the server pages (changes to channels, to the directory, balance movements): a section with its
 * heading, what the caller puts above the list, the page's events one a row (each keyed and marked by its event id),
 * and the page controls.
 */
export function HistoryPanel<Row extends { event_id: string }>({
  id,
  heading,
  history,
  columns,
  page,
  pageSize,
  onPage,
  labels,
  minWidth,
  striped = false,
  children,
}: HistoryPanelProps<Row>) {
  const rows = history.data?.data ?? [];
  const pages = Math.max(1, Math.ceil((history.data?.meta.total ?? 0) / pageSize));
  return (
    <Card withBorder radius="md" component="section" aria-labelledby={id}>
      <Title order={2} fz="h4" id={id} mb="sm">
        {heading}
      </Title>
      {children}
      {history.isPending ? (
        <Loader size="sm" aria-label={labels.loading} />
      ) : history.isError && history.refetch ? (
        <LoadFailed
          query={{
            ...history,
            error: history.error,
            isFetching: Boolean(history.isFetching),
            refetch: history.refetch,
          }}
          title={labels.unavailable}
        />
      ) : history.isError && labels.unavailable ? (
        <Text c="var(--mantine-color-error)">{labels.unavailable}</Text>
      ) : rows.length === 0 ? (
        <Text c="dimmed">{labels.empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table
            fz="sm"
            {...(striped
              ? { striped: true, verticalSpacing: 5 }
              : { highlightOnHover: true, verticalSpacing: 6 })}
          >
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Table.Th key={column.key}>{column.header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.event_id} data-event-id={row.event_id}>
                  {columns.map((column) => (
                    <Table.Td key={column.key} {...column.td}>
                      {column.cell(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pages total={pages} value={page} onChange={onPage} labels={labels} />
    </Card>
  );
}
