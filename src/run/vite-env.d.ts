// CSS imports and import.meta.env in the run and results views, as Vite builds them.
/// <reference types="vite/client" />
