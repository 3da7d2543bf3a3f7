// A probe of loop orders for a transposed read (issue 74), kept to reproduce
// bench/results/2026-12-05-zen5-transpose.txt; not built by CMake.
//
//   g++ -O2 -march=native -o /tmp/tile_order_probe bench/transpose/tile_order_probe.cpp && /tmp/tile_order_probe
//
// out[b, j, i] = x[b, i, j] * g[i] + bb[i], x [8, 512, 768] f32, written by
// hand in several ways: contig (x already transposed: the roof), gath (16-lane
// gathers, the row's chunks outside the tiles), pf<NT, PD, JOUT> (16 x 16
// tiles transposed in registers, prefetching PD tiles ahead, JOUT: the tiles
// outside the chunks), pj<PD, HINT, TJ> (tiles outside, the prefetch wrapping
// to the next tile column), gj (gathers in pj's order). Medians of 21 calls.
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>
constexpr int B=8, I=512, J=768; // x [B,I,J], out [B,J,I], g,b [I]
static inline void tr16(__m512 r[16]) {
  __m512 t[16];
  for (int k=0;k<16;k+=2){ t[k]=_mm512_unpacklo_ps(r[k],r[k+1]); t[k+1]=_mm512_unpackhi_ps(r[k],r[k+1]); }
  for (int k=0;k<16;k+=4){
    r[k]  =_mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[k]),_mm512_castps_pd(t[k+2])));
    r[k+1]=_mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[k]),_mm512_castps_pd(t[k+2])));
    r[k+2]=_mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[k+1]),_mm512_castps_pd(t[k+3])));
    r[k+3]=_mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[k+1]),_mm512_castps_pd(t[k+3])));
  }
  for (int k=0;k<4;k++){
    t[k]   =_mm512_shuffle_f32x4(r[k],r[k+4],0x88);
    t[k+4] =_mm512_shuffle_f32x4(r[k],r[k+4],0xdd);
    t[k+8] =_mm512_shuffle_f32x4(r[k+8],r[k+12],0x88);
    t[k+12]=_mm512_shuffle_f32x4(r[k+8],r[k+12],0xdd);
  }
  for (int k=0;k<4;k++){
    r[k]   =_mm512_shuffle_f32x4(t[k],t[k+8],0x88);
    r[k+8] =_mm512_shuffle_f32x4(t[k],t[k+8],0xdd);
    r[k+4] =_mm512_shuffle_f32x4(t[k+4],t[k+12],0x88);
    r[k+12]=_mm512_shuffle_f32x4(t[k+4],t[k+12],0xdd);
  }
}
// r[k] after tr16: column ? figure out by test.
template<bool NT> static inline void st(float*p,__m512 v){ if(NT) _mm512_stream_ps(p,v); else _mm512_storeu_ps(p,v);}
static int perm[16];
template<bool NT, bool JOUT>
void regtr(const float* x,const float* g,const float* bb,float* o){
  for(int b=0;b<B;b++){
    const float* xb=x+(size_t)b*I*J; float* ob=o+(size_t)b*I*J;
    auto tile=[&](int i,int j){
      __m512 r[16];
      for(int k=0;k<16;k++) r[k]=_mm512_loadu_ps(xb+(size_t)(i+k)*J+j);
      tr16(r);
      __m512 G=_mm512_loadu_ps(g+i), Bv=_mm512_loadu_ps(bb+i);
      for(int k=0;k<16;k++) st<NT>(ob+(size_t)(j+k)*I+i,_mm512_fmadd_ps(r[perm[k]],G,Bv));
    };
    if(JOUT){ for(int j=0;j<J;j+=16) for(int i=0;i<I;i+=16) tile(i,j);}
    else { for(int i=0;i<I;i+=16) for(int j=0;j<J;j+=16) tile(i,j);}
  }
}
template<bool NT, bool JOUT>
void buftr(const float* x,const float* g,const float* bb,float* o){
  alignas(64) float buf[256];
  for(int b=0;b<B;b++){
    const float* xb=x+(size_t)b*I*J; float* ob=o+(size_t)b*I*J;
    auto tile=[&](int i,int j){
      __m512 r[16];
      for(int k=0;k<16;k++) r[k]=_mm512_loadu_ps(xb+(size_t)(i+k)*J+j);
      tr16(r);
      for(int k=0;k<16;k++) _mm512_store_ps(buf+16*k,r[perm[k]]);
      __m512 G=_mm512_loadu_ps(g+i), Bv=_mm512_loadu_ps(bb+i);
      for(int k=0;k<16;k++) st<NT>(ob+(size_t)(j+k)*I+i,_mm512_fmadd_ps(_mm512_load_ps(buf+16*k),G,Bv));
    };
    if(JOUT){ for(int j=0;j<J;j+=16) for(int i=0;i<I;i+=16) tile(i,j);}
    else { for(int i=0;i<I;i+=16) for(int j=0;j<J;j+=16) tile(i,j);}
  }
}
template<bool NT, int BI, int BJ, bool JOUT>
void blk(const float* x,const float* g,const float* bb,float* o){
  for(int b=0;b<B;b++){
    const float* xb=x+(size_t)b*I*J; float* ob=o+(size_t)b*I*J;
    auto tile=[&](int i,int j){
      __m512 r[16];
      for(int k=0;k<16;k++) r[k]=_mm512_loadu_ps(xb+(size_t)(i+k)*J+j);
      tr16(r);
      __m512 G=_mm512_loadu_ps(g+i), Bv=_mm512_loadu_ps(bb+i);
      for(int k=0;k<16;k++) st<NT>(ob+(size_t)(j+k)*I+i,_mm512_fmadd_ps(r[perm[k]],G,Bv));
    };
    for(int ib=0;ib<I;ib+=BI) for(int jb=0;jb<J;jb+=BJ)
      if(JOUT){ for(int j=jb;j<jb+BJ;j+=16) for(int i=ib;i<ib+BI;i+=16) tile(i,j);} else { for(int i=ib;i<ib+BI;i+=16) for(int j=jb;j<jb+BJ;j+=16) tile(i,j);}
  }
}
template<bool NT, int PD, bool JOUT>
void pf(const float* x,const float* g,const float* bb,float* o){
  for(int b=0;b<B;b++){
    const float* xb=x+(size_t)b*I*J; float* ob=o+(size_t)b*I*J;
    auto tile=[&](int i,int j){
      __m512 r[16];
      for(int k=0;k<16;k++) r[k]=_mm512_loadu_ps(xb+(size_t)(i+k)*J+j);
      if(JOUT){ for(int k=0;k<16;k++) _mm_prefetch((const char*)(xb+(size_t)(i+k+16*PD)*J+j),_MM_HINT_T0);}
      else { for(int k=0;k<16;k++) _mm_prefetch((const char*)(xb+(size_t)(i+k)*J+j+16*PD),_MM_HINT_T0);}
      tr16(r);
      __m512 G=_mm512_loadu_ps(g+i), Bv=_mm512_loadu_ps(bb+i);
      for(int k=0;k<16;k++) st<NT>(ob+(size_t)(j+k)*I+i,_mm512_fmadd_ps(r[perm[k]],G,Bv));
    };
    if(JOUT){ for(int j=0;j<J;j+=16) for(int i=0;i<I;i+=16) tile(i,j);}
    else { for(int i=0;i<I;i+=16) for(int j=0;j<J;j+=16) tile(i,j);}
  }
}
template<int PD, int HINT, int TJ>
void pj(const float* x,const float* g,const float* bb,float* o){
  for(int b=0;b<B;b++){
    const float* xb=x+(size_t)b*I*J; float* ob=o+(size_t)b*I*J;
    for(int j=0;j<J;j+=16*TJ) for(int i=0;i<I;i+=16){
      int ip=i+16*PD, jp=j; if(ip>=I){ip-=I; jp+=16*TJ;}
      for(int t=0;t<TJ;t++){
      __m512 r[16];
      for(int k=0;k<16;k++) r[k]=_mm512_loadu_ps(xb+(size_t)(i+k)*J+j+16*t);
      for(int k=0;k<16;k++) _mm_prefetch((const char*)(xb+(size_t)(ip+k)*J+jp+16*t),(_mm_hint)HINT);
      tr16(r);
      __m512 G=_mm512_loadu_ps(g+i), Bv=_mm512_loadu_ps(bb+i);
      for(int k=0;k<16;k++) _mm512_stream_ps(ob+(size_t)(j+16*t+k)*I+i,_mm512_fmadd_ps(r[perm[k]],G,Bv));
      }
    }
  }
}
template<int PD>
void gj(const float* x,const float* g,const float* bb,float* o){
  const __m512i idx=_mm512_mullo_epi32(_mm512_setr_epi32(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15),_mm512_set1_epi32(J));
  for(int b=0;b<B;b++){ const float* xb=x+(size_t)b*I*J; float* ob=o+(size_t)b*I*J;
    for(int j=0;j<J;j+=16) for(int i=0;i<I;i+=16){ __m512 G=_mm512_loadu_ps(g+i), Bv=_mm512_loadu_ps(bb+i);
      int ip=i+16*PD, jp=j; if(ip>=I){ip-=I; jp+=16;}
      for(int k=0;k<16;k++) _mm_prefetch((const char*)(xb+(size_t)(ip+k)*J+jp),_MM_HINT_T0);
      for(int k=0;k<16;k++){
        __m512 v=_mm512_mask_i32gather_ps(_mm512_setzero_ps(),0xFFFF,idx,xb+(size_t)i*J+j+k,4);
        _mm512_stream_ps(ob+(size_t)(j+k)*I+i,_mm512_fmadd_ps(v,G,Bv)); } } }
}
template<bool NT>
void gath(const float* x,const float* g,const float* bb,float* o){
  const __m512i idx=_mm512_mullo_epi32(_mm512_setr_epi32(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15),_mm512_set1_epi32(J));
  for(int b=0;b<B;b++){ const float* xb=x+(size_t)b*I*J; float* ob=o+(size_t)b*I*J;
    for(int i=0;i<I;i+=16){ __m512 G=_mm512_loadu_ps(g+i), Bv=_mm512_loadu_ps(bb+i);
      for(int j=0;j<J;j+=16) for(int k=0;k<16;k++){
        __m512 v=_mm512_mask_i32gather_ps(_mm512_setzero_ps(),0xFFFF,idx,xb+(size_t)i*J+j+k,4);
        st<NT>(ob+(size_t)(j+k)*I+i,_mm512_fmadd_ps(v,G,Bv)); } } }
}
template<bool NT>
void contig(const float* x,const float* g,const float* bb,float* o){
  for(size_t r=0;r<(size_t)B*J;r++) for(int i=0;i<I;i+=16) st<NT>(o+r*I+i,_mm512_fmadd_ps(_mm512_load_ps(x+r*I+i),_mm512_loadu_ps(g+i),_mm512_loadu_ps(bb+i)));
}
int main(){
  size_t n=(size_t)B*I*J;
  float*x=(float*)aligned_alloc(64,n*4),*o=(float*)aligned_alloc(64,n*4); std::vector<float> g(I),bb(I);
  for(size_t k=0;k<n;k++) x[k]=(float)(k%1000)*0.5f;
  for(int k=0;k<I;k++){g[k]=1+k%3;bb[k]=k%7;}
  // find perm: r[k] after tr16 holds column c
  { __m512 r[16]; float m[16][16]; for(int a=0;a<16;a++)for(int c=0;c<16;c++)m[a][c]=a*16+c;
    for(int a=0;a<16;a++) r[a]=_mm512_loadu_ps(m[a]);
    tr16(r);
    for(int k=0;k<16;k++){ float v[16]; _mm512_storeu_ps(v,r[k]); int c=(int)v[0]%16; perm[c]=k; for(int a=0;a<16;a++) if(v[a]!=a*16+c) {printf("bad tr\n");return 1;} } }
  auto check=[&]{ for(int b=0;b<B;b+=3)for(int j=0;j<J;j+=7)for(int i=0;i<I;i+=5){float e=x[(size_t)b*I*J+(size_t)i*J+j]*g[i]+bb[i]; if(o[(size_t)b*I*J+(size_t)j*I+i]!=e){printf("mismatch\n");exit(1);}}};
  struct V{const char*n; void(*f)(const float*,const float*,const float*,float*); bool chk;};
  V vs[]={{"contig_nt",contig<true>,false},{"contig_st",contig<false>,false},
    {"gather_nt",gath<true>,true},{"gather_st",gath<false>,true},
    {"regtr_iout_nt",regtr<true,false>,true},{"regtr_iout_st",regtr<false,false>,true},
    {"regtr_jout_nt",regtr<true,true>,true},{"regtr_jout_st",regtr<false,true>,true},
    {"buf_iout_nt",buftr<true,false>,true},{"buf_jout_nt",buftr<true,true>,true},
    {"b64x64_nt",blk<true,64,64,false>,true},{"b128x128_nt",blk<true,128,128,false>,true},
    {"pf4_i",pf<true,4,false>,true},{"pf2_j",pf<true,2,true>,true},
    {"pj1",pj<1,3,1>,true},{"pj2",pj<2,3,1>,true},{"pj3",pj<3,3,1>,true},{"pj2_t1",pj<2,2,1>,true},{"pj2x2",pj<2,3,2>,true},
    {"gj2",gj<2>,true}};
  for(auto&v:vs){ std::vector<double> t; for(int rep=0;rep<21;rep++){ auto a=std::chrono::steady_clock::now(); v.f(x,g.data(),bb.data(),o); auto e=std::chrono::steady_clock::now(); t.push_back(std::chrono::duration<double,std::milli>(e-a).count()); }
    if(v.chk) check();
    std::sort(t.begin(),t.end());
    printf("%-16s median %.3f ms  min %.3f\n",v.n,t[10],t[0]);
  }
}
