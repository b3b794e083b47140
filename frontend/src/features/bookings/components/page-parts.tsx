import { Center, Stack, Tabs, Text, Title } from "@mantine/core";
import type { BookingList } from "@skyward/contracts/bookings";
import { memo, useState } from "react";
import { useTranslation } from "react-i18next";
import { afterPaint } from "../../../lib/after-paint.ts";
import { BOOKING_LISTS } from "../lists.ts";

/**
 * A list with no booking in it: also the largest text of the bookings page's first screen when its list is empty,
 * which the server sends painted before the app starts (app/first-screen.tsx), so both are this one component.
 */
export function ListEmpty({ title, text }: { title: string; text: string }) {
  return (
    <Center py={60}>
      <Stack gap={4} align="center">
        <Text fw={600}>{title}</Text>
        <Text fz="sm" c="dimmed">
          {text}
        </Text>
      </Stack>
    </Center>
  );
}

/** The bookings page's heading: its title and what the page holds. */
export function BookingsHeading({ title, lead }: { title: string; lead: string }) {
  return (
    <Stack gap={2}>
      <Title order={1} fz={22}>
        {title}
      </Title>
      <Text c="dimmed" fz="sm">
        {lead}
      </Text>
    </Stack>
  );
}

/**
 * The lists' tabs: the chosen tab shows at once, a render of the tabs alone, and the page (its address and list)
 * follows after that paint (issue 27's interaction budget).
 */
export const ListTabs = memo(function ListTabs({
  list,
  onList,
}: {
  list: BookingList;
  onList: (list: BookingList) => void;
}) {
  const { t } = useTranslation("bookings");
  const [shown, setShown] = useState(list);
  const [followed, setFollowed] = useState(list);
  if (followed !== list) {
    setFollowed(list);
    setShown(list);
  }
  return (
    <Tabs
      value={shown}
      onChange={(value) => {
        if (!value) return;
        setShown(value as BookingList);
        afterPaint(() => onList(value as BookingList));
      }}
    >
      <Tabs.List style={{ flexWrap: "wrap" }}>
        {BOOKING_LISTS.map((item) => (
          <Tabs.Tab key={item} value={item} fw={500}>
            {t(`lists.${item}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
});
