import { useId, useState, type ChangeEvent } from 'react';
import { type EditorImage, imageSrc, MAX_IMAGE_BYTES, MAX_IMAGES } from './editor-model';
import { makeVariants } from './resize';

const ACCEPTED = ['image/png', 'image/jpeg'];

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}

type Props = { images: EditorImage[]; onChange: (images: EditorImage[]) => void };

/** Up to nine PNG/JPEG images, read as base64 data URLs, with thumbnails and remove buttons. */
export default function ImagesField({ images, onChange }: Props) {
  const inputId = useId();
  const hintId = useId();
  const [problems, setProblems] = useState<string[]>([]);
  const [reading, setReading] = useState(false);

  async function onFiles(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length === 0) return;
    if (images.length + files.length > MAX_IMAGES) {
      window.alert(`You can only upload ${MAX_IMAGES} images`);
      return;
    }
    const found: string[] = [];
    const added: EditorImage[] = [];
    setReading(true);
    for (const file of files) {
      if (!ACCEPTED.includes(file.type)) {
        found.push(`${file.name} is not a PNG or JPEG image.`);
        continue;
      }
      if (file.size > MAX_IMAGE_BYTES) {
        found.push(`${file.name} is larger than 5 MB.`);
        continue;
      }
      try {
        const [base64, variants] = await Promise.all([readAsDataUrl(file), makeVariants(file)]);
        added.push({
          base64,
          name: file.name,
          size: file.size,
          type: file.type,
          ...(variants.length ? { variants } : {}),
        });
      } catch {
        found.push(`${file.name} could not be read.`);
      }
    }
    setReading(false);
    setProblems(found);
    if (added.length) onChange([...images, ...added]);
  }

  const remove = (index: number) => onChange(images.filter((_, i) => i !== index));

  return (
    <fieldset className="editor-images">
      <legend>
        Images{' '}
        <span className="editor-required" aria-hidden="true">
          *
        </span>
      </legend>
      <p id={hintId} className="editor-hint">
        Up to {MAX_IMAGES} images. 600x600 px, max 5 MB, JPG/JPEG/PNG. The first image is the cover.
      </p>
      {images.length > 0 && (
        <ul className="editor-thumbs" aria-label="Chosen images">
          {images.map((image, index) => (
            <li key={'Key' in image ? image.Key : `${image.name}-${index}`}>
              <img src={imageSrc(image)} alt={image.name} width="96" height="96" />
              <button
                type="button"
                className="editor-thumb-remove"
                onClick={() => remove(index)}
                aria-label={`Remove ${image.name}`}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="editor-upload">
        <input
          id={inputId}
          className="editor-file-input"
          type="file"
          accept="image/png,image/jpeg"
          multiple
          onChange={onFiles}
          aria-describedby={hintId}
          disabled={images.length >= MAX_IMAGES}
        />
        <label htmlFor={inputId} className="btn btn-outline">
          {images.length ? 'Add more images' : 'Upload images'}
        </label>
        <span className="editor-hint" aria-live="polite">
          {reading ? 'Reading images…' : `${images.length} of ${MAX_IMAGES} images`}
        </span>
      </div>
      {problems.length > 0 && (
        <ul className="editor-field-error" role="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
