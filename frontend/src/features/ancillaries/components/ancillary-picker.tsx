import { Alert, Button, Checkbox, Group, Loader, Stack, Text, Title } from "@mantine/core";
import type { BookingDetails } from "@skyward/contracts/bookings";
import { money } from "@skyward/contracts/money";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ancillaryName, segmentLabel } from "../../../components/travel/ancillary-name.ts";
import { useFormats } from "../../../components/travel/use-formats.ts";
import { Modal } from "../../../components/ui/modal.tsx";
import { notifyApiError } from "../../../lib/api-client.ts";
import { notify } from "../../../lib/notifications.ts";
import { catalogueQueryOptions, useAddAncillaries } from "../api/ancillaries.ts";

const key = (ancillaryId: string, passenger: number) => `${ancillaryId}|${passenger}`;

/**
 * Bags and cabin bags per passenger and segment, priced for the agent: added to a held booking (paid with the
 * tickets), or bought after issue as EMDs charged to the balance now.
 */
export function AncillaryPicker({ booking, onClose }: { booking: BookingDetails; onClose: () => void }) {
  const { t } = useTranslation("ancillaries");
  const formats = useFormats();
  const catalogue = useQuery(catalogueQueryOptions(booking.locator));
  const add = useAddAncillaries(booking.locator);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const held = booking.status === "held";
  const bags = (catalogue.data ?? []).filter((i) => i.type !== "seat");
  const owned = new Set(
    (booking.ancillaries ?? [])
      .filter((l) => l.status !== "refunded" && l.status !== "voided")
      .map((l) => key(l.ancillary_id, l.passenger_index)),
  );
  const segments = booking.fare.flights.flatMap((f) => f.segments);
  const picked = bags.flatMap((item) =>
    booking.passengers.flatMap((_, p) => (chosen.has(key(item.ancillary_id, p)) ? [{ item, p }] : [])),
  );
  const total = money(
    picked.reduce((sum, x) => sum + x.item.price.amount, 0),
    booking.price.currency,
  );
  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const submit = () =>
    add.mutate(
      picked.map((x) => ({ ancillary_id: x.item.ancillary_id, passenger_index: x.p })),
      {
        onSuccess: (response) => {
          notify({
            type: "success",
            text: held
              ? t("added_held", { locator: booking.locator })
              : response.async_emd_issue
                ? t("added_pending", { locator: booking.locator })
                : t("added_issued", { locator: booking.locator, amount: formats.money(response.total) }),
          });
          onClose();
        },
        onError: notifyApiError,
      },
    );

  return (
    <Modal
      opened
      closeButtonProps={{ "aria-label": t("close", { ns: "common" }) }}
      onClose={onClose}
      title={
        <Title order={2} fz={16}>
          {t("picker.title")}
        </Title>
      }
      size="lg"
    >
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          {held ? t("picker.held_hint") : t("picker.issued_hint")}
        </Text>
        {catalogue.isPending ? (
          <Group gap="xs">
            <Loader size="sm" />
            <Text fz="sm">{t("picker.loading")}</Text>
          </Group>
        ) : bags.length === 0 ? (
          <Alert variant="light">{t("picker.none_on_sale")}</Alert>
        ) : (
          booking.passengers.map((passenger, p) =>
            passenger.type === "infant" ? null : (
              <Stack
                key={`${passenger.last_name}/${passenger.first_name}/${passenger.document.number}`}
                gap={6}
                component="fieldset"
                style={{ border: 0, padding: 0, margin: 0 }}
              >
                <Text component="legend" fw={650} fz="sm">
                  {passenger.first_name} {passenger.last_name}
                </Text>
                {segments.map((segment) => (
                  <Stack key={segment.id} gap={4} pl="sm">
                    <Text fz="xs" c="dimmed">
                      {segmentLabel(segment)}
                    </Text>
                    {bags
                      .filter((item) => item.segment_id === segment.id)
                      .map((item) => {
                        const id = key(item.ancillary_id, p);
                        const has = owned.has(id);
                        return (
                          <Checkbox
                            key={id}
                            checked={has || chosen.has(id)}
                            disabled={has}
                            onChange={() => toggle(id)}
                            label={`${ancillaryName(t, item)} · ${formats.money(item.price)}${has ? ` · ${t("picker.owned")}` : ""}`}
                          />
                        );
                      })}
                  </Stack>
                ))}
              </Stack>
            ),
          )
        )}
        <Group justify="space-between">
          <Text fw={650}>{t("picker.total", { amount: formats.money(total) })}</Text>
          <Group gap="xs">
            <Button variant="default" onClick={onClose}>
              {t("back")}
            </Button>
            <Button onClick={submit} disabled={picked.length === 0} loading={add.isPending}>
              {held ? t("picker.confirm_held") : t("picker.confirm_issued", { amount: formats.money(total) })}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
