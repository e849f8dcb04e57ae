// The pane's job list and RENT.HISTORY poll jobs the same way; the loop lives with the data layer.
export { pollUntil, type PollOptions } from "../data/pollUntil";
