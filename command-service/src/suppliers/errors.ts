import { DomainError } from "@skyward/infra/http/errors";

/** The supplier did not answer or answered with a failure of its own: nothing changed on our side. */
export class SupplierUnavailable extends DomainError {
  constructor(
    detail = "The airline system is not responding, try again later",
    code = "supplier_unavailable",
  ) {
    super(502, code, "Supplier unavailable", detail);
  }
}

/** The seats or the fare asked for can no longer be sold. */
export class NoAvailability extends DomainError {
  constructor(detail = "The seats are no longer available on this fare", code = "no_availability") {
    super(409, code, "No availability", detail);
  }
}

/** An offer id the supplier does not know (expired, or from another supplier). */
export class OfferNotFound extends DomainError {
  constructor(detail = "The offer has expired, search again", code = "offer_not_found") {
    super(404, code, "Offer not found", detail);
  }
}

/** The supplier refused the operation for a business reason named by `code` (e.g. void_window_closed). */
export class SupplierRejected extends DomainError {
  /** `pointer`: the request field the refusal is about, when it is one (the slice an exchange names). */
  constructor(code: string, detail: string, pointer?: string) {
    super(422, code, "Rejected by the supplier", detail, pointer === undefined ? undefined : { pointer });
  }
}
