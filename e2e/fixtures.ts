// The stories the browser journeys expect to find (or never find) on the public site.
export const E2E_CATEGORY = { name: "Animals", slug: "animals" };

export const PUBLISHED_STORIES = [
  { title: "Goat elected honorary mayor of Tromsø", url: "https://oddplanet.example/stories/goat-mayor" },
  { title: "Parrot orders forty pizzas through a smart speaker", url: "https://oddplanet.example/stories/parrot-pizza" },
  { title: "Octopus escapes aquarium, returns with a crab", url: "https://bizarre.example/octopus-crab" },
];

export const PENDING_STORIES = [
  { title: "PENDING: Raccoon runs for city council", url: "https://oddplanet.example/stories/raccoon-council" },
  { title: "PENDING: Ghost files a noise complaint", url: "https://bizarre.example/ghost-noise" },
];

export const REJECTED_TITLE = "REJECTED: Pigeon forecasts the stock market";
