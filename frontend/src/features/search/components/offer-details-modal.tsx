import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Table,
  Tabs,
  Text,
} from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ancillaryName } from "../../../components/travel/ancillary-name.ts";
import { FareConditions } from "../../../components/travel/fare-conditions.tsx";
import { PriceBreakdown } from "../../../components/travel/price-breakdown.tsx";
import { SegmentList } from "../../../components/travel/segment-list.tsx";
import { SliceFareRules } from "../../../components/travel/slice-fare-rules.tsx";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { Modal } from "../../../components/ui/modal.tsx";
import { useFareText } from "../../../lib/fare-text.ts";
import { offerDetailsQueryOptions } from "../api/offer-details.ts";
import { useClientView } from "./client-view.ts";

/** `GET /offers/{id}/details`: the fare priced line by line, its rules, baggage and ancillaries. */
export function OfferDetailsModal({
  fareId,
  searchResultId,
  onClose,
  onBook,
}: {
  fareId: string | null;
  searchResultId: string;
  onClose: () => void;
  onBook: (fareId: string) => void;
}) {
  const { t } = useTranslation("search");
  const { t: ta } = useTranslation("ancillaries");
  const clientView = useClientView();
  const formats = useFormats();
  const fareText = useFareText();
  const details = useQuery({
    ...offerDetailsQueryOptions(fareId ?? "", searchResultId),
    enabled: fareId !== null,
  });
  const data = details.data;
  return (
    <Modal
      closeButtonProps={{ "aria-label": t("close", { ns: "common" }) }}
      opened={fareId !== null}
      onClose={onClose}
      size={820}
      title={
        <Group gap="xs">
          <Text fw={650}>{t("details.title")}</Text>
          {data ? (
            <Badge variant="light" radius="sm">
              {fareText.brand(data.fare)}
            </Badge>
          ) : null}
        </Group>
      }
      scrollAreaComponent={ScrollArea.Autosize}
    >
      {details.isPending ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : null}
      {details.isError ? <Alert color="red">{t("details.failed")}</Alert> : null}
      {data ? (
        <Stack gap="md">
          <Tabs defaultValue="price" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="price">{t("details.tabs.price")}</Tabs.Tab>
              <Tabs.Tab value="itinerary">{t("details.tabs.itinerary")}</Tabs.Tab>
              <Tabs.Tab value="rules">{t("details.tabs.rules")}</Tabs.Tab>
              <Tabs.Tab value="extras">{t("details.tabs.extras")}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="price" pt="md">
              <PriceBreakdown detail={data.fare.price_detail} clientView={clientView} />
            </Tabs.Panel>
            <Tabs.Panel value="itinerary" pt="md">
              <Stack gap="md">
                {data.flights.map((flight) => (
                  <Stack key={flight.id} gap={4}>
                    <Text fz="xs" fw={600} c="dimmed" tt="uppercase">
                      {t(`itinerary.${flight.direction}`)} · {formats.day(flight.departure_at)} ·{" "}
                      {formats.duration(flight.duration_minutes)}
                    </Text>
                    <SegmentList flight={flight} fareSegments={data.fare.fare_segments} />
                  </Stack>
                ))}
                <Table fz="xs" withTableBorder verticalSpacing={4}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("details.segment")}</Table.Th>
                      <Table.Th>{t("details.booking_class")}</Table.Th>
                      <Table.Th>{t("details.fare_basis")}</Table.Th>
                      <Table.Th>{t("form.cabin")}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.fare.fare_segments.map((segment) => (
                      <Table.Tr key={segment.segment_id}>
                        <Table.Td ff="monospace">{segment.segment_id}</Table.Td>
                        <Table.Td>{segment.booking_class}</Table.Td>
                        <Table.Td ff="monospace">{segment.fare_basis}</Table.Td>
                        <Table.Td>{t(`cabins.${segment.cabin}`)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="rules" pt="md">
              <Stack gap="sm">
                <FareConditions fareSegments={data.fare.fare_segments} penalty={data.fare.penalty} />
                <SliceFareRules slices={data.fare_rules.slices} />
                {data.fare_rules.sections.map((section) => (
                  <Stack key={section.category} gap={2}>
                    <Text fz="sm" fw={600}>
                      {section.category}. {fareText.sectionTitle(section)}
                    </Text>
                    <Text fz="sm" c="var(--mantine-color-text)" style={{ whiteSpace: "pre-line" }}>
                      {fareText.sectionText(section.text)}
                    </Text>
                  </Stack>
                ))}
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="extras" pt="md">
              {data.ancillaries.length === 0 ? (
                <Text fz="sm" c="dimmed">
                  {t("details.no_extras")}
                </Text>
              ) : (
                <Table fz="sm" verticalSpacing={6}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("details.extra")}</Table.Th>
                      <Table.Th>{t("details.segment")}</Table.Th>
                      <Table.Th ta="right">{t("details.extra_price")}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.ancillaries.map((item) => (
                      <Table.Tr key={item.ancillary_id}>
                        <Table.Td>{ancillaryName(ta, item)}</Table.Td>
                        <Table.Td ff="monospace" fz="xs">
                          {item.segment_id}
                        </Table.Td>
                        <Table.Td ta="right">{formats.money(item.price)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Tabs.Panel>
          </Tabs>
          <Group justify="space-between">
            <Text fz="sm" c="dimmed">
              {t("details.validating_carrier", { carrier: data.fare.validating_carrier })}
            </Text>
            <Button onClick={() => onBook(data.fare.fare_id)}>{t("details.book")}</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
