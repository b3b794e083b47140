import { SimpleGrid, TextInput } from "@mantine/core";
import { IconPhone } from "@tabler/icons-react";

export type PersonField = "first_name" | "last_name" | "phone";

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
          label={labels.first_name}
          autoComplete="given-name"
          required
          autoFocus={autoFocus}
        />
        <TextInput {...field("last_name")} label={labels.last_name} autoComplete="family-name" required />
      </SimpleGrid>
      <TextInput
        {...field("phone")}
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
