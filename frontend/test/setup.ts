import "@testing-library/jest-dom/jest-globals";

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
