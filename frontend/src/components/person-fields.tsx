import { SimpleGrid, TextInput } from "@mantine/core";
import type { GetInputPropsReturnType } from "@mantine/form";
import { PersonName, Phone } from "@skyward/contracts/account";
import { IconPhone } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { personalData } from "../lib/personal-data.ts";

export type PersonField = "first_name" | "last_name" | "phone";

/** The contract's rules for these fields; an empty phone means none (onboarding) or the one on file (account). */
export const personRules = {
  first_name: PersonName,
  last_name: PersonName,
  phone: z.union([z.literal(""), Phone]),
};

/**
 * A form's `validate` from a zod resolver of a schema holding these fields: the schema decides, and the message
 * beside the field is the interface language's (onboarding's catalogue words it for both screens).
 */
export function usePersonValidation(resolve: (values: Record<string, unknown>) => Record<string, unknown>) {
  const { t } = useTranslation("onboarding");
  return (values: object) =>
    Object.fromEntries(
      Object.keys(resolve({ ...values })).map((field) => [
        field,
        t(field === "phone" ? "info.errors.phone" : "info.errors.name"),
      ]),
    );
}

/** PersonFields' `field` for a @mantine/form form holding these fields. */
export function personFieldsOf(
  form: { getInputProps(name: PersonField): GetInputPropsReturnType },
  disabled: boolean,
): PersonFieldsProps["field"] {
  return (name) => {
    const input = form.getInputProps(name);
    return {
      name,
      value: String(input.value ?? ""),
      error: input.error as string | undefined,
      disabled,
      onChange: input.onChange as (event: { currentTarget: HTMLInputElement }) => void,
    };
  };
}

export interface PersonFieldsProps {
  /** The form's binding of one field: name, value, error, disabled, onChange. */
  field: (name: PersonField) => {
    name: string;
    value: string;
    error?: string | undefined;
    disabled: boolean;
    onChange: (event: { currentTarget: HTMLInputElement }) => void;
  };
  labels: Record<PersonField | "phone_description" | "phone_placeholder", string>;
  autoFocus?: boolean;
}

/** First and last name side by side, then the phone: the same fields in onboarding and on the account page. */
export function PersonFields({ field, labels, autoFocus }: PersonFieldsProps) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <TextInput
          {...field("first_name")}
          {...personalData}
          label={labels.first_name}
          autoComplete="given-name"
          required
          autoFocus={autoFocus}
        />
        <TextInput
          {...field("last_name")}
          {...personalData}
          label={labels.last_name}
          autoComplete="family-name"
          required
        />
      </SimpleGrid>
      <TextInput
        {...field("phone")}
        {...personalData}
        type="tel"
        label={labels.phone}
        description={labels.phone_description}
        placeholder={labels.phone_placeholder}
        autoComplete="tel"
        leftSection={<IconPhone size={16} />}
      />
    </>
  );
}
