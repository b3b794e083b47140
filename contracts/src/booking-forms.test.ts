import { describe, expect, it } from "@jest/globals";
import { CommentForm, ContactsForm } from "./booking-forms.ts";
import { CommentRequest } from "./bookings.ts";
import { BookingContacts } from "./supplier.ts";

const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => result.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [];

describe("the booking drawer's forms", () => {
  it("given contacts as typed, when valid, then they parse to what the modify request accepts", () => {
    const typed = ContactsForm.parse({ email: " olena@example.com ", phone: "+38 (050) 111-22-33" });
    expect(typed).toEqual({ email: "olena@example.com", phone: "+380501112233" });
    expect(BookingContacts.safeParse(typed).success).toBe(true);
  });

  it("given wrong or empty contacts, then each field has one issue naming its catalogue key", () => {
    expect(issues(ContactsForm.safeParse({ email: "olena@", phone: "0501112233" }))).toEqual([
      "email: email",
      "phone: phone",
    ]);
    expect(issues(ContactsForm.safeParse({ email: "  ", phone: " - " }))).toEqual([
      "email: required",
      "phone: required",
    ]);
  });

  it("given comments, then the form and the comment request agree, blanks being required", () => {
    for (const comment of ["Window seats", "  Window seats  ", "x".repeat(2000), "x".repeat(2001), "   "])
      expect([comment.length, CommentForm.safeParse({ comment }).success]).toEqual([
        comment.length,
        CommentRequest.shape.comment.safeParse(comment).success,
      ]);
    expect(issues(CommentForm.safeParse({ comment: " " }))).toEqual(["comment: required"]);
    expect(issues(CommentForm.safeParse({ comment: "x".repeat(2001) }))).toEqual(["comment: too_long"]);
  });
});
