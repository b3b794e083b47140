import type { FormErrors } from "@mantine/form";
import type { SyntheticEvent } from "react";

/**
 * A form library's `onValidationFailure`: once the errors are drawn, the first field in error takes the focus, so
 * a screen reader reads its label and the error it describes (aria-describedby), and the keyboard is where the fix is.
 */
export function focusFirstError(
  _errors: FormErrors,
  _values: unknown,
  event: SyntheticEvent<HTMLFormElement> | undefined,
) {
  const form = event?.currentTarget;
  if (!form) return;
  // After React has drawn the errors (the fields carry aria-invalid from then on).
  setTimeout(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
}
