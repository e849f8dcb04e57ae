import { describeError } from "./messages";

/** An element the page must have; a missing one is a bug in taskpane.html, reported by its id. */
export function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The task pane page lacks #${id}.`);
  return found as T;
}

/**
 * What a text field holds: a native input's value or a Fluent text input's (the same property). Empty when
 * nothing was typed, also before a Fluent element has upgraded (its value is not there yet).
 */
export function fieldText(id: string): string {
  const value: unknown = (element(id) as HTMLElement & { value?: unknown }).value;
  return typeof value === "string" ? value : "";
}

/**
 * Checks or unchecks a Fluent radio or check box. A radio group settles its choice from the `checked`
 * attributes when its radios arrive, so the attribute is set with the property.
 */
export function setChecked(choice: HTMLElement, checked: boolean): void {
  choice.toggleAttribute("checked", checked);
  (choice as HTMLInputElement).checked = checked;
}

/** The pane's one live region: screen readers announce what it says. */
export class StatusLine {
  constructor(
    private readonly target: HTMLElement,
    /** Sees every failure shown, e.g. to remember the last rate limit. */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  show(text: string): void {
    this.target.textContent = text;
    this.target.classList.remove("error");
  }

  error(error: unknown): void {
    this.onError(error);
    this.target.textContent = describeError(error);
    this.target.classList.add("error");
  }
}

/**
 * Runs an action started by a button: the button is disabled until it settles (no double submits), and a
 * failure is shown in words on the status line instead of being lost.
 */
export async function whileBusy(button: HTMLButtonElement, status: StatusLine, action: () => Promise<void>) {
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    await action();
  } catch (error) {
    status.error(error);
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

/** A labelled progress bar: value/max when the total is known, indeterminate otherwise. */
export function showProgress(bar: HTMLProgressElement, done: number, total: number | undefined): void {
  bar.hidden = false;
  if (total === undefined || total <= 0) {
    bar.removeAttribute("value");
    return;
  }
  bar.max = total;
  bar.value = Math.min(done, total);
}

/** Replaces a list's items with one per line of text. */
export function fillList(list: HTMLElement, lines: readonly string[]): void {
  list.replaceChildren(
    ...lines.map((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      return item;
    }),
  );
}

/**
 * `show` run once after the events of this moment: a burst of changes (fifty requests let through at once)
 * redraws once, and a live region is not rewritten fifty times.
 */
export function coalesced(show: () => void): () => void {
  let scheduled = false;
  return () => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      show();
    }, 0);
  };
}
