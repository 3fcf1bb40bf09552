// Test-only tools that ship no types: typed as any where the tests use them.
declare module "js-yaml";
declare module "madge";
