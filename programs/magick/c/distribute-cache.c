/*
 * Replaces ImageMagick's magick/distribute-cache.c whole: the distributed
 * pixel cache serves and reaches pixel caches over TCP sockets from
 * threads, and the sandbox has neither for it (the original does not
 * compile without threads). This unit gives MagickCore the same functions,
 * written against their declarations in distribute-cache-private.h: none
 * is ever reached unless a cache server is asked for, which fails with
 * ImageMagick's own "distributed pixel cache not supported" error. Our own
 * code (MIT).
 */
#include "magick/studio.h"
#include "magick/distribute-cache.h"
#include "magick/distribute-cache-private.h"
#include "magick/exception.h"
#include "magick/exception-private.h"

MagickPrivate DistributeCacheInfo *AcquireDistributeCacheInfo(ExceptionInfo *exception)
{
	(void)ThrowMagickException(exception, GetMagickModule(), MissingDelegateError,
				   "DelegateLibrarySupportNotBuiltIn", "'%s' (distributed pixel cache)",
				   "sockets and threads");
	return (DistributeCacheInfo *)NULL;
}

MagickPrivate DistributeCacheInfo *DestroyDistributeCacheInfo(DistributeCacheInfo *server_info)
{
	(void)server_info;
	return (DistributeCacheInfo *)NULL;
}

MagickExport void DistributePixelCacheServer(const int port, ExceptionInfo *exception)
{
	(void)port;
	(void)ThrowMagickException(exception, GetMagickModule(), MissingDelegateError,
				   "DelegateLibrarySupportNotBuiltIn", "'%s' (distributed pixel cache)",
				   "sockets and threads");
}

MagickPrivate int GetDistributeCacheFile(const DistributeCacheInfo *server_info)
{
	(void)server_info;
	return -1;
}

MagickPrivate const char *GetDistributeCacheHostname(const DistributeCacheInfo *server_info)
{
	(void)server_info;
	return (const char *)NULL;
}

MagickPrivate int GetDistributeCachePort(const DistributeCacheInfo *server_info)
{
	(void)server_info;
	return -1;
}

MagickPrivate MagickBooleanType OpenDistributePixelCache(DistributeCacheInfo *server_info,
							 Image *image)
{
	(void)server_info;
	(void)image;
	return MagickFalse;
}

MagickPrivate MagickOffsetType ReadDistributePixelCacheIndexes(
	DistributeCacheInfo *server_info, const RectangleInfo *region, const MagickSizeType length,
	unsigned char *magick_restrict indexes)
{
	(void)server_info;
	(void)region;
	(void)length;
	(void)indexes;
	return -1;
}

MagickPrivate MagickOffsetType ReadDistributePixelCachePixels(
	DistributeCacheInfo *server_info, const RectangleInfo *region, const MagickSizeType length,
	unsigned char *magick_restrict pixels)
{
	(void)server_info;
	(void)region;
	(void)length;
	(void)pixels;
	return -1;
}

MagickPrivate MagickBooleanType RelinquishDistributePixelCache(DistributeCacheInfo *server_info)
{
	(void)server_info;
	return MagickFalse;
}

MagickPrivate MagickOffsetType WriteDistributePixelCacheIndexes(
	DistributeCacheInfo *server_info, const RectangleInfo *region, const MagickSizeType length,
	const unsigned char *indexes)
{
	(void)server_info;
	(void)region;
	(void)length;
	(void)indexes;
	return -1;
}

MagickPrivate MagickOffsetType WriteDistributePixelCachePixels(
	DistributeCacheInfo *server_info, const RectangleInfo *region, const MagickSizeType length,
	const unsigned char *magick_restrict pixels)
{
	(void)server_info;
	(void)region;
	(void)length;
	(void)pixels;
	return -1;
}
