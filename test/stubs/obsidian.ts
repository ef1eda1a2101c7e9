// Stub of the types-only `obsidian` package: only what tests use (STYLE: Tests). Grows with the tests.
export {};
