import { useState } from 'react';
import Picture from '../media/Picture';
import { SIZES } from '../../lib/images';

/**
 * Click-to-load YouTube: a local poster and a play button until the visitor asks for the video,
 * so no third-party script, cookie or request happens before that click.
 */
export default function VideoFacade({ videoId, title, poster }: { videoId: string; title: string; poster: string }) {
  const [playing, setPlaying] = useState(false);
  if (playing) {
    return (
      <div className="video-frame">
        <iframe
          src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?autoplay=1&rel=0`}
          title={title}
          width={1200}
          height={675}
          allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
        />
      </div>
    );
  }
  return (
    <div className="video-frame">
      <Picture src={poster} sizes={SIZES.hero} width={1200} height={675} />
      {/* The button stands above the note, whatever the note's height at a phone's width or a larger text. */}
      <div className="video-foot">
        <button type="button" className="video-play" onClick={() => setPlaying(true)}>
          <svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true">
            <path fill="currentColor" d="M8 5v14l11-7z" />
          </svg>
          <span>
            Play video<span className="visually-hidden">: {title}</span>
          </span>
        </button>
        <p className="video-note">Plays from YouTube (youtube-nocookie.com) once you press play.</p>
      </div>
    </div>
  );
}
