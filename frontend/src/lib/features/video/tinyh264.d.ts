// tinyh264 ships no types. Its Emscripten module, as far as soft264.ts uses it.
declare module 'tinyh264/es/TinyH264.js' {
  export interface TinyH264Module {
    HEAPU8: Uint8Array;
    _malloc(size: number): number;
    _free(ptr: number): void;
    _h264bsdAlloc(): number;
    _h264bsdInit(storage: number, noOutputReordering: number): number;
    _h264bsdDecode(storage: number, data: number, length: number, pPicture: number, pWidth: number, pHeight: number): number;
    _h264bsdShutdown(storage: number): void;
    _h264bsdFree(storage: number): void;
    getValue(ptr: number, type: string): number;
  }
  const TinyH264: () => Promise<TinyH264Module>;
  export default TinyH264;
}
