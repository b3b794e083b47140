import { Combobox, Group, Loader, Text, TextInput, useCombobox } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import type { TravelDocument } from "@skyward/contracts/supplier";
import type { Traveller } from "@skyward/contracts/travellers";
import { IconUserSearch } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { personalData } from "../../../lib/personal-data.ts";
import { recentTravellersQueryOptions, travellersQueryOptions } from "../api/travellers.ts";

/** A kept traveller with one of their documents (null: none kept), as the agent picks them into a passenger. */
export interface PickedTraveller {
  traveller: Traveller;
  document: TravelDocument | null;
}

/** One choice per document (a traveller without one is a choice too): the agent sees which is valid for the trip. */
type Choice = PickedTraveller & { value: string };
function choicesOf(travellers: readonly Traveller[]): Choice[] {
  return travellers.flatMap((traveller): Choice[] =>
    traveller.documents.length === 0
      ? [{ value: traveller.id, traveller, document: null }]
      : traveller.documents.map((document) => ({
          value: `${traveller.id}:${document.type}:${document.number}`,
          traveller,
          document,
        })),
  );
}

/**
 * Finds a kept traveller by name or document as the agent types (`GET /travellers?q=`), or lists the company's
 * recent travellers when asked (Alt+T in the passenger's fields, `GET /travellers?order=recent`), and fills the passenger
 * with the chosen one; a document that expires before the trip's last flight is marked, and the form refuses it
 * at its field.
 */
export function TravellerPicker({
  index,
  lastDate,
  onPick,
  recentAsked = 0,
}: {
  index: number;
  lastDate: string;
  onPick: (picked: PickedTraveller) => void;
  /** Counts the agent's asks for the recent travellers (Alt+T in the passenger's fields): each opens them here. */
  recentAsked?: number;
}) {
  const { t } = useTranslation("search");
  const combobox = useCombobox({
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setRecent(false);
    },
  });
  const [text, setText] = useState("");
  const [recent, setRecent] = useState(false);
  const [debounced] = useDebouncedValue(text.trim(), 200);
  const typed = useQuery({ ...travellersQueryOptions(debounced), enabled: debounced.length >= 2 });
  const lately = useQuery({ ...recentTravellersQueryOptions(), enabled: recent });
  // The recent travellers while nothing is typed; what the typed words find otherwise.
  const listingRecent = recent && text.trim() === "";
  const travellers = listingRecent ? lately : typed;
  const choices = choicesOf(travellers.data ?? []);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (recentAsked === 0) return;
    setText("");
    setRecent(true);
    input.current?.focus();
    combobox.openDropdown();
  }, [recentAsked, combobox.openDropdown]);
  // The first recent traveller is chosen (Enter picks them), as a typed search's first match is not.
  useEffect(() => {
    if (listingRecent && choices.length > 0) combobox.selectFirstOption();
  }, [listingRecent, choices.length, combobox.selectFirstOption]);
  const label = t("booking.traveller.label", { number: index + 1 });

  const choose = (value: string) => {
    const picked = choices.find((choice) => choice.value === value);
    if (!picked) return;
    onPick(picked);
    setText("");
    combobox.closeDropdown();
  };

  return (
    <Combobox store={combobox} onOptionSubmit={choose} withinPortal>
      <Combobox.Target>
        <TextInput
          ref={input}
          label={label}
          placeholder={t("booking.traveller.placeholder")}
          value={text}
          autoComplete="off"
          spellCheck={false}
          leftSection={<IconUserSearch size={15} />}
          rightSection={travellers.isFetching ? <Loader size={14} /> : null}
          onChange={(event) => {
            setText(event.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown
        hidden={(!listingRecent && debounced.length < 2) || (travellers.isPending && choices.length === 0)}
        miw={340}
      >
        <Combobox.Options aria-label={listingRecent ? t("booking.traveller.recent") : label}>
          {choices.map(({ value, traveller, document }) => {
            const expired = document !== null && document.expires_on < lastDate;
            return (
              <Combobox.Option value={value} key={value}>
                <Group gap="sm" wrap="nowrap" justify="space-between">
                  <div style={{ minWidth: 0 }}>
                    <Text fz="sm" fw={500} truncate="end" {...personalData}>
                      {traveller.last_name} {traveller.first_name}
                    </Text>
                    <Text fz="xs" c="dimmed" truncate="end" {...personalData}>
                      {[
                        traveller.date_of_birth,
                        document
                          ? t(expired ? "booking.traveller.document_expired" : "booking.traveller.document", {
                              type: t(`booking.document_types.${document.type}`),
                              number: document.number,
                              date: document.expires_on,
                            })
                          : t("booking.traveller.no_document"),
                      ].join(" · ")}
                    </Text>
                  </div>
                </Group>
              </Combobox.Option>
            );
          })}
          {choices.length === 0 && travellers.isFetched ? (
            <Combobox.Empty>
              {listingRecent ? t("booking.traveller.no_recent") : t("booking.traveller.none")}
            </Combobox.Empty>
          ) : null}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
