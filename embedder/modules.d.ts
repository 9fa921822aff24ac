declare module "*.bin" {
  const data: ArrayBuffer;
  export default data;
}
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
