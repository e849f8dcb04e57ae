/**
 * Excel reads a written value that starts with "=", "+", "-" or "@" as a formula. Text from the service or a
 * file must stay text: a property named "=WEBSERVICE(...)" would otherwise run in the user's workbook. A
 * leading apostrophe is Excel's own "this is text" mark; it is not shown in the cell.
 *
 * As OWASP's CSV-injection guidance lists them: a text that begins with = + - @, a tab or a carriage return,
 * and also one whose formula character follows leading whitespace or quotes (` =1+1`, `"=1+1"`, `'=1+1`),
 * which spreadsheet programs may strip before they read it.
 */
const FORMULA_START = /^[\t\r]|^[\s"']*[=+\-@]/;

/** Excel's limit on the characters of one cell. */
export const MAX_CELL_TEXT_LENGTH = 32_767;

export function asLiteralText(text: string): string {
  const literal = FORMULA_START.test(text) ? `'${text}` : text;
  // Excel refuses a whole request when one cell is over the limit; a cut text is better than no export.
  return literal.length <= MAX_CELL_TEXT_LENGTH ? literal : `${literal.slice(0, MAX_CELL_TEXT_LENGTH - 1)}…`;
}
