import { A11y, Keyboard, Navigation, Pagination } from 'swiper/modules';
import { Swiper, SwiperSlide } from 'swiper/react';
import 'swiper/css';
import 'swiper/css/navigation';
import 'swiper/css/pagination';

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

/** Home page campaign carousel (spec section 9): three per view on wide screens, dots and arrows. */
export default function CampaignCarousel({ slides, label }: { slides: CarouselSlide[]; label: string }) {
  return (
    <div className="campaign-carousel">
      <Swiper
        modules={[Navigation, Pagination, A11y, Keyboard]}
        navigation
        pagination={{ clickable: true }}
        keyboard={{ enabled: true, onlyInViewport: true }}
        a11y={{ containerMessage: label, slideLabelMessage: '{{index}} of {{slidesLength}}' }}
        spaceBetween={24}
        slidesPerView={1}
        breakpoints={{ 640: { slidesPerView: 2 }, 1024: { slidesPerView: 3 } }}
      >
        {slides.map((slide) => (
          <SwiperSlide key={slide.href}>
            <article className="card">
              <div className="card-media">
                {slide.image && <img src={slide.image} alt="" width={600} height={400} loading="lazy" decoding="async" />}
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
          </SwiperSlide>
        ))}
      </Swiper>
    </div>
  );
}
