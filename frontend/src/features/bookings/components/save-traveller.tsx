import { Button } from "@mantine/core";
import type { PassengerToBook } from "@skyward/contracts/bookings";
import { IconUserPlus } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ApiError, notifyApiError } from "../../../lib/api-client.ts";
import { notify } from "../../../lib/notifications.ts";
import { saveTraveller } from "../api/save-traveller.ts";

/** Keeps a booked passenger as a traveller of the company; one already kept (same name and birth date) is said so. */
export function SaveTravellerButton({
  companyId,
  passenger,
}: {
  companyId: string;
  passenger: PassengerToBook;
}) {
  const { t } = useTranslation("bookings");
  const name = `${passenger.last_name.toUpperCase()}/${passenger.first_name.toUpperCase()}`;
  const save = useMutation({
    mutationFn: () => saveTraveller(companyId, passenger),
    onSuccess: () => notify({ type: "success", text: t("drawer.traveller_saved", { name }) }),
    onError: (error) => {
      if (error instanceof ApiError && error.hasCode("traveller_duplicate"))
        notify({ type: "success", text: t("drawer.traveller_already_kept", { name }) });
      else notifyApiError(error);
    },
  });
  return (
    <Button
      variant="subtle"
      size="compact-xs"
      leftSection={<IconUserPlus size={13} />}
      loading={save.isPending}
      onClick={() => save.mutate()}
      aria-label={t("drawer.save_traveller_for", { name })}
    >
      {t("drawer.save_traveller")}
    </Button>
  );
}
