import { describe, expect, it } from "@jest/globals";
import { render } from "@testing-library/react";
import { taggedText } from "./tagged-text.tsx";

const link = (href: string) => (text: string) => <a href={href}>{text}</a>;

describe("taggedText", () => {
  it("renders each tagged part through its renderer and keeps the text between", () => {
    const { container } = render(
      <p>
        {taggedText("Accept the <terms>terms</terms> and the <privacy>policy</privacy>.", {
          terms: link("/t"),
          privacy: link("/p"),
        })}
      </p>,
    );
    expect(container.innerHTML).toBe(
      '<p>Accept the <a href="/t">terms</a> and the <a href="/p">policy</a>.</p>',
    );
  });

  it("leaves unknown and unclosed tags as text", () => {
    const { container } = render(<p>{taggedText("a <x>b</x> <terms>c", { terms: link("/t") })}</p>);
    expect(container.textContent).toBe("a <x>b</x> <terms>c");
  });
});
