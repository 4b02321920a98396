import { describe, expect, test } from "vitest";
import { deleteNote, missingFieldsReason } from "./reasons";

describe("why a category cannot be added or saved yet", () => {
  test.each([
    ["", "", "Enter a category name and a URL slug to add the category."],
    ["  ", "odd", "Enter a category name to add the category."],
    ["Odd Jobs", " ", "Enter a URL slug to add the category."],
    ["Odd Jobs", "odd-jobs", null],
  ])("name %j and slug %j: %s", (name, slug, reason) => {
    expect(missingFieldsReason(name, slug, "add the category")).toBe(reason);
  });

  test("the edit form's reason names its own action", () => {
    expect(missingFieldsReason("", "odd-jobs", "save")).toBe("Enter a category name to save.");
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
