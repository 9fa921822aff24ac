// Text files imported whole (`?raw`, Vite's loader): docs the tests hold the code to.
declare module "*.md?raw" {
  const text: string;
  export default text;
}
declare module "*.csv?raw" {
  const text: string;
  export default text;
}
