/** How a FrameImage fetches, decodes and releases images; tests pass their own. */
export interface FrameLoader {
  /** Fetches an image and returns an object URL for it. */
  fetch(url: string): Promise<string>;
  /** Resolves once the image at an object URL is decoded (so the swap does not flicker). */
  decode(src: string): Promise<void>;
  revoke(src: string): void;
}

export function browserDecode(src: string): Promise<void> {
  const img = new Image();
  img.src = src;
  return img.decode();
}

/**
 * The image on the stage. The next frame is fetched and decoded before it replaces the
 * shown one: no flicker and no layout shift. A later show() wins over one still loading,
 * and each replaced object URL is released.
 */
export class FrameImage {
  /** Object URL of the image shown, or '' for none. */
  src = $state('');
  /** The last image asked for could not be loaded. */
  failed = $state(false);
  private token = 0;

  /** `keepOnError` says whether the shown image stays when the next one fails. */
  constructor(
    private readonly loader: FrameLoader,
    private readonly keepOnError: () => boolean,
  ) {}

  async show(url: string): Promise<void> {
    const token = ++this.token;
    if (!url) {
      if (this.src) this.loader.revoke(this.src);
      this.src = '';
      this.failed = false;
      return;
    }
    let next = '';
    try {
      next = await this.loader.fetch(url);
      await this.loader.decode(next);
    } catch {
      if (next) this.loader.revoke(next);
      if (token !== this.token) return;
      this.failed = true;
      if (!this.keepOnError()) this.src = '';
      return;
    }
    if (token !== this.token) {
      this.loader.revoke(next);
      return;
    }
    const old = this.src;
    this.src = next;
    this.failed = false;
    if (old) this.loader.revoke(old);
  }
}
