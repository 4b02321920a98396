import { describe, expect, test } from "vitest";
import { categoryFormProblem } from "~/domain/categories/category-form";
import { deleteNote } from "./reasons";

describe("why a category cannot be added or saved yet, in the server's words", () => {
  test.each([
    ["", "", "A category needs a name and a URL slug"],
    ["  ", "odd", "A category needs a name and a URL slug"],
    ["Odd Jobs", " ", "A category needs a name and a URL slug"],
    // The server cleans the slug before checking it: one with no word characters is empty.
    ["Odd Jobs", "!!!", "A category needs a name and a URL slug"],
    ["Odd Jobs", "odd-jobs", null],
  ])("name %j and slug %j: %s", (name, slug, reason) => {
    expect(categoryFormProblem({ name, slug })).toBe(reason);
  });
});

describe("the line under a category's Delete button", () => {
  test.each([
    [0, null, null],
    [0, "Animals", null],
    [1, null, "Choose where its 1 story goes before deleting it."],
    [4, null, "Choose where its 4 stories go before deleting it."],
    [4, "Animals", "Its 4 stories will move to Animals."],
    [1, "Animals", "Its 1 story will move to Animals."],
  ])("%i stories, moving to %j: %s", (count, moveTo, note) => {
    expect(deleteNote(count, moveTo)).toBe(note);
  });
});
