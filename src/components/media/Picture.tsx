import { responsiveSources, type ImageLike } from '../../lib/images';

/** The React twin of ResponsiveImage.astro for islands: AVIF/WebP srcsets where the image has them. */
export default function Picture({
  src,
  sizes,
  width,
  height,
  alt = '',
}: {
  src: ImageLike | string;
  sizes: string;
  width: number;
  height: number;
  alt?: string;
}) {
  const sources = responsiveSources(src);
  const url = typeof src === 'string' ? src : src.url;
  return (
    <picture>
      {sources.avif && <source type="image/avif" srcSet={sources.avif} sizes={sizes} />}
      {sources.webp && <source type="image/webp" srcSet={sources.webp} sizes={sizes} />}
      <img src={url} alt={alt} width={width} height={height} loading="lazy" decoding="async" />
    </picture>
  );
}
