// Texts of the story form shared by the server and the browser.
export const REQUIRED_FIELDS_MESSAGE = "Please fill in the title and select a category";
export const ALREADY_REJECTED_MESSAGE = "This story URL has already been rejected. The story will be removed from the active list.";
