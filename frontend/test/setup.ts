import "@testing-library/jest-dom/jest-globals";
import { configure } from "@testing-library/react";

// findBy*/waitFor wait up to 10 s rather than Testing Library's 1 s: a CI machine running the suite's other projects
// beside these renders a lazy chunk or a popover seconds late. A passing test does not wait longer for it.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks the layout APIs that TanStack Router's scroll restoration and Mantine's popovers call.
window.scrollTo = () => {};
Element.prototype.scrollIntoView = () => {};

window.matchMedia = (query: string): MediaQueryList => ({
  matches: false,
  media: query,
  onchange: null,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  dispatchEvent: () => false,
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub;

// jsdom has no fetch API; TanStack Router's redirects are Responses (status and headers are all it reads).
if (typeof globalThis.Response === "undefined") {
  class ResponseStub {
    readonly status: number;
    readonly headers: Headers;
    constructor(_body?: unknown, init?: { status?: number; headers?: HeadersInit }) {
      this.status = init?.status ?? 200;
      this.headers = new Headers(init?.headers);
    }
  }
  globalThis.Response = ResponseStub as unknown as typeof Response;
}
