import { useEffect, useRef, useState } from 'react';
import Swiper from 'swiper';
import Picture from '../media/Picture';
import { SIZES } from '../../lib/images';

/** Only what a slide shows, so the island's serialized props stay small. */
export type CarouselSlide = {
  href: string;
  title: string;
  description: string;
  image: string | null;
  raised: string;
  goal: string;
  percent: string;
};

/**
 * Home page campaign carousel (spec section 9): three per view on wide screens, dots and arrows.
 * Swiper core on server-rendered markup (not swiper/react or its navigation/pagination modules):
 * our own arrow and dot buttons keep the island small and keyboard-accessible.
 * Swiper's core rules that it needs are in src/styles/home.css (not swiper/css, inlined whole).
 */
export default function CampaignCarousel({ slides, label }: { slides: CarouselSlide[]; label: string }) {
  const root = useRef<HTMLDivElement>(null);
  const swiperRef = useRef<Swiper | null>(null);
  const [snaps, setSnaps] = useState(0);
  const [active, setActive] = useState(0);

  useEffect(() => {
    if (!root.current) return;
    // Only slides in view stay in the tab order and the accessibility tree.
    const sync = (swiper: Swiper) => {
      setSnaps(swiper.snapGrid.length);
      setActive(swiper.snapIndex);
      swiper.slides.forEach((slide) => {
        const visible = slide.classList.contains('swiper-slide-visible');
        slide
          .querySelectorAll('a')
          .forEach((a) => (visible ? a.removeAttribute('tabindex') : a.setAttribute('tabindex', '-1')));
        slide.setAttribute('aria-hidden', visible ? 'false' : 'true');
      });
    };
    // The CSS's breakpoints are in em (40em, 64em), so a reader's larger default text gets fewer
    // slides at the same width; Swiper's are in px, so they follow the browser's text size here.
    const em = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const swiper = new Swiper(root.current, {
      // No sliding animation for those who asked their system for less motion (the snap carousels do the same).
      speed: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 0 : 300,
      spaceBetween: 24,
      slidesPerView: 1,
      breakpoints: { [40 * em]: { slidesPerView: 2 }, [64 * em]: { slidesPerView: 3 } },
      watchSlidesProgress: true,
      on: { init: sync, slideChange: sync, resize: sync, slideChangeTransitionEnd: sync },
    });
    swiperRef.current = swiper;
    return () => {
      swiper.destroy(true, true);
    };
  }, []);

  const last = Math.max(0, snaps - 1);
  return (
    <div className="campaign-carousel" role="region" aria-roledescription="carousel" aria-label={label}>
      <div className="swiper" ref={root}>
        <ul className="swiper-wrapper">
          {slides.map((slide, i) => (
            <li
              className="swiper-slide"
              key={slide.href}
              aria-label={`${i + 1} of ${slides.length}`}
              aria-roledescription="slide"
            >
              <article className="card">
                <div className="card-media">
                  {slide.image && <Picture src={slide.image} sizes={SIZES.card} width={600} height={400} />}
                </div>
                <div className="card-body">
                  <h3 className="card-title">
                    <a href={slide.href}>{slide.title}</a>
                  </h3>
                  <p className="card-desc">{slide.description}</p>
                  <p className="card-raised">
                    <strong>{slide.raised}</strong> raised of {slide.goal}
                  </p>
                  <div
                    className="progress"
                    role="progressbar"
                    aria-label={`${slide.title}: ${slide.percent}% of goal raised`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.min(100, Number(slide.percent))}
                  >
                    <span style={{ width: `${Math.min(100, Number(slide.percent))}%` }} />
                  </div>
                  <p className="card-percent">{slide.percent}%</p>
                </div>
              </article>
            </li>
          ))}
        </ul>
      </div>
      {/* Arrows and dots are ours (not Swiper's modules): real buttons, and a smaller island. */}
      <button
        type="button"
        className="carousel-arrow carousel-prev"
        aria-label="Previous campaigns"
        disabled={!snaps || active === 0}
        onClick={() => swiperRef.current?.slidePrev()}
      >
        <svg width="12" height="20" viewBox="0 0 12 20" aria-hidden="true">
          <path d="M10 2 2 10l8 8" fill="none" stroke="currentColor" strokeWidth="2.5" />
        </svg>
      </button>
      <button
        type="button"
        className="carousel-arrow carousel-next"
        aria-label="Next campaigns"
        disabled={!snaps || active >= last}
        onClick={() => swiperRef.current?.slideNext()}
      >
        <svg width="12" height="20" viewBox="0 0 12 20" aria-hidden="true">
          <path d="m2 2 8 8-8 8" fill="none" stroke="currentColor" strokeWidth="2.5" />
        </svg>
      </button>
      <div className="carousel-dots">
        {Array.from({ length: snaps > 1 ? snaps : 0 }, (_, i) => (
          <button
            type="button"
            key={i}
            className={`carousel-dot${i === active ? ' is-active' : ''}`}
            aria-label={`Go to slide ${i + 1}`}
            aria-current={i === active ? 'true' : undefined}
            onClick={() => swiperRef.current?.slideTo(i)}
          />
        ))}
      </div>
    </div>
  );
}
