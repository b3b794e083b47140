import { Button, Group, Pagination, Table, Text, TextInput, UnstyledButton } from "@mantine/core";
import { type ReactNode, useState } from "react";
import { Modal } from "./modal.tsx";

/** One column of a DataTable: its header, its cell, and how it sorts when it does. */
export interface Column<Row> {
  key: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** Present on columns the table sorts by (numbers sort as numbers, the rest as text in the page's language). */
  sortValue?: (row: Row) => string | number;
}

export interface DataTableProps<Row> {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  /** The text a row is found by; without it, the table has no filter box. */
  filterText?: (row: Row) => string;
  labels: { filter?: string; empty: string } & PageLabels;
  pageSize?: number;
  initialSort?: { column: string; descending: boolean };
  /** Controls beside the filter (a create form). */
  toolbar?: ReactNode;
  minWidth?: number;
}

export function sortRows<Row>(
  rows: readonly Row[],
  key: (row: Row) => string | number,
  descending: boolean,
): Row[] {
  return [...rows].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return descending ? -order : order;
  });
}

/**
 * The dense table the administration screens share: sorting by a header (ascending, then descending), a filter
 * box, and pages, all kept in the component (the lists are small; the long histories page on the server instead).
 */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  filterText,
  labels,
  pageSize = 20,
  initialSort,
  toolbar,
  minWidth = 900,
}: DataTableProps<Row>) {
  const [filter, setFilter] = useState("");
  const [sort, setSort] = useState(initialSort ?? null);
  const [page, setPage] = useState(1);
  const wanted = filter.trim().toLocaleLowerCase();
  const found =
    filterText && wanted ? rows.filter((row) => filterText(row).toLocaleLowerCase().includes(wanted)) : rows;
  const sortColumn = columns.find((c) => c.key === sort?.column && c.sortValue);
  const ordered = sortColumn?.sortValue
    ? sortRows(found, sortColumn.sortValue, sort?.descending ?? false)
    : found;
  const pages = Math.max(1, Math.ceil(ordered.length / pageSize));
  const current = Math.min(page, pages);
  const shown = ordered.slice((current - 1) * pageSize, current * pageSize);
  return (
    <>
      {filterText || toolbar ? (
        <Group align="flex-end" mb="sm" justify="space-between">
          {filterText ? (
            <TextInput
              label={labels.filter}
              value={filter}
              size="xs"
              onChange={(event) => {
                setFilter(event.currentTarget.value);
                setPage(1);
              }}
            />
          ) : (
            <span />
          )}
          {toolbar}
        </Group>
      ) : null}
      {shown.length === 0 ? (
        <Text c="dimmed">{labels.empty}</Text>
      ) : (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table highlightOnHover verticalSpacing={6} fz="sm">
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => {
                  if (!column.sortValue) return <Table.Th key={column.key}>{column.header}</Table.Th>;
                  const active = sort?.column === column.key;
                  const descending = active && sort?.descending;
                  return (
                    <Table.Th
                      key={column.key}
                      aria-sort={active ? (descending ? "descending" : "ascending") : "none"}
                    >
                      <UnstyledButton
                        fw={600}
                        fz="sm"
                        onClick={() =>
                          setSort({ column: column.key, descending: active ? !descending : false })
                        }
                      >
                        {column.header} {active ? (descending ? "↓" : "↑") : ""}
                      </UnstyledButton>
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <Table.Td key={column.key}>{column.cell(row)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Pages total={pages} value={current} onChange={setPage} labels={labels} />
    </>
  );
}

export interface PageLabels {
  previous: string;
  next: string;
}

/** Page controls, only when there is more than one page; the arrows are named for screen readers. */
export function Pages({
  total,
  value,
  onChange,
  labels,
}: {
  total: number;
  value: number;
  onChange: (page: number) => void;
  labels: PageLabels;
}) {
  if (total <= 1) return null;
  return (
    <Group justify="flex-end" mt="sm">
      <Pagination
        size="sm"
        total={total}
        value={value}
        onChange={onChange}
        getControlProps={(control) =>
          control === "previous"
            ? { "aria-label": labels.previous }
            : control === "next"
              ? { "aria-label": labels.next }
              : {}
        }
      />
    </Group>
  );
}

/** A destructive action asks first; the dialog names what goes. */
export function ConfirmButton({
  label,
  question,
  labels,
  onConfirm,
}: {
  label: string;
  question: string;
  labels: { title: string; cancel: string };
  onConfirm: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="compact-xs" color="red" variant="subtle" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={labels.title}
        centered
        closeButtonProps={{ "aria-label": labels.cancel }}
      >
        <Text mb="md">{question}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpen(false)}>
            {labels.cancel}
          </Button>
          <Button
            color="red"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {label}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
