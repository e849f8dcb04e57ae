/**
 * Text a table writes never starts a formula: OWASP's CSV-injection list (= + - @, tab, carriage return), and
 * the same characters behind leading whitespace or quotes.
 */
import { asLiteralText } from "../../src/tables/literalText";

it.each([
  "=1+1",
  "+1",
  "-1",
  "@SUM(A1)",
  "\t=1+1",
  "\r=1+1",
  "\tanything",
  "\ranything",
  " =1+1",
  "   +cmd",
  '"=HYPERLINK("x")',
  "'=1+1",
  ` "'@x`,
  "\n=1+1",
])("keeps %j as text", (text) => {
  expect(asLiteralText(text)).toBe(`'${text}`);
});

it.each(["The Residences", " Park Place", '"Quoted" name', "1=1", "a+b", "x@example.com"])(
  "leaves %j as it is",
  (text) => {
    expect(asLiteralText(text)).toBe(text);
  },
);
