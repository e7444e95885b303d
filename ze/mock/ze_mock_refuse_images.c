// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Refused: images and samplers (ze_mock_refuse.h). The devices report no
// image support (zeDeviceGetImageProperties: 0 everywhere, no samplers),
// so no format is supported (zeImageCreate and zeImageGetProperties:
// ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT), no sampler can be made, and
// no image or sampler handle exists for the rest: the image tables, the
// image copies of command lists, image residency, and the bindless image
// pitch of 1.9.

#include "ze_mock_refuse.h"

// ze_image_flag_t: 2 bits.
#define IMAGE_FLAGS 0x3u

static ze_result_t check_image_desc(const ze_image_desc_t *desc) {
    if (desc->flags & ~IMAGE_FLAGS ||
        (unsigned)desc->type > (unsigned)ZE_IMAGE_TYPE_BUFFER) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    return ze_mock_refuse(ZE_MOCK_FAMILY_IMAGES,
                          ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
}

static ze_result_t ZE_APICALL
mock_ImageGetProperties(ze_device_handle_t hDevice, const ze_image_desc_t *desc,
                        ze_image_properties_t *pImageProperties) {
    ZE_MOCK_ENTER(zeImageGetProperties);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)dev;
    ZE_MOCK_CHECK_POINTER(desc);
    ZE_MOCK_CHECK_POINTER(pImageProperties);
    return check_image_desc(desc);
}

static ze_result_t ZE_APICALL mock_ImageCreate(ze_context_handle_t hContext,
                                               ze_device_handle_t hDevice,
                                               const ze_image_desc_t *desc,
                                               ze_image_handle_t *phImage) {
    ZE_MOCK_ENTER(zeImageCreate);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)ctx, (void)dev;
    ZE_MOCK_CHECK_POINTER(desc);
    ZE_MOCK_CHECK_POINTER(phImage);
    return check_image_desc(desc);
}

// A view of an image: the context and device, then the image, never one.
static ze_result_t view_create(ze_context_handle_t hContext,
                               ze_device_handle_t hDevice) {
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)ctx, (void)dev;
    return ze_mock_refuse_handle(ZE_MOCK_FAMILY_IMAGES, "image");
}

static ze_result_t ZE_APICALL mock_ImageViewCreateExt(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    const ze_image_desc_t *desc, ze_image_handle_t hImage,
    ze_image_handle_t *phImageView) {
    ZE_MOCK_ENTER(zeImageViewCreateExt);
    (void)desc, (void)hImage, (void)phImageView;
    return view_create(hContext, hDevice);
}

static ze_result_t ZE_APICALL mock_ImageViewCreateExp(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    const ze_image_desc_t *desc, ze_image_handle_t hImage,
    ze_image_handle_t *phImageView) {
    ZE_MOCK_ENTER(zeImageViewCreateExp);
    (void)desc, (void)hImage, (void)phImageView;
    return view_create(hContext, hDevice);
}

ZE_MOCK_REFUSE_HANDLE(IMAGES, "image", ImageDestroy, ze_image_handle_t hImage)
ZE_MOCK_REFUSE_HANDLE(IMAGES, "image", ImageGetMemoryPropertiesExp,
                      ze_image_handle_t hImage,
                      ze_image_memory_properties_exp_t *pMemoryProperties)
ZE_MOCK_REFUSE_HANDLE(IMAGES, "image", ImageGetDeviceOffsetExp,
                      ze_image_handle_t hImage, uint64_t *pDeviceOffset)

static ze_result_t ZE_APICALL mock_ImageGetAllocPropertiesExt(
    ze_context_handle_t hContext, ze_image_handle_t hImage,
    ze_image_allocation_ext_properties_t *pImageAllocProperties) {
    ZE_MOCK_ENTER(zeImageGetAllocPropertiesExt);
    (void)hImage, (void)pImageAllocProperties;
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    (void)ctx;
    return ze_mock_refuse_handle(ZE_MOCK_FAMILY_IMAGES, "image");
}

void ze_mock_fill_image(ze_mock_image_dditable_t *t) {
    t->v1_4.pfnGetProperties = mock_ImageGetProperties;
    t->v1_4.pfnCreate = mock_ImageCreate;
    t->v1_4.pfnDestroy = mock_ImageDestroy;
    t->v1_4.pfnGetAllocPropertiesExt = mock_ImageGetAllocPropertiesExt;
    t->pfnViewCreateExt = mock_ImageViewCreateExt;
}

void ze_mock_fill_image_exp(ze_mock_image_exp_dditable_t *t) {
    t->v1_4.pfnGetMemoryPropertiesExp = mock_ImageGetMemoryPropertiesExp;
    t->v1_4.pfnViewCreateExp = mock_ImageViewCreateExp;
    t->pfnGetDeviceOffsetExp = mock_ImageGetDeviceOffsetExp;
}

// Samplers --------------------------------------------------------------------

static ze_result_t ZE_APICALL mock_SamplerCreate(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    const ze_sampler_desc_t *desc, ze_sampler_handle_t *phSampler) {
    ZE_MOCK_ENTER(zeSamplerCreate);
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)ctx, (void)dev;
    ZE_MOCK_CHECK_POINTER(desc);
    ZE_MOCK_CHECK_POINTER(phSampler);
    if ((unsigned)desc->addressMode >
            (unsigned)ZE_SAMPLER_ADDRESS_MODE_MIRROR ||
        (unsigned)desc->filterMode > (unsigned)ZE_SAMPLER_FILTER_MODE_LINEAR) {
        return ZE_MOCK_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
    return ze_mock_refuse(ZE_MOCK_FAMILY_IMAGES,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

ZE_MOCK_REFUSE_HANDLE(IMAGES, "sampler", SamplerDestroy,
                      ze_sampler_handle_t hSampler)

void ze_mock_fill_sampler(ze_sampler_dditable_t *t) {
    t->pfnCreate = mock_SamplerCreate;
    t->pfnDestroy = mock_SamplerDestroy;
}

// Image copies
// --------------------------------------------------------------------
//
// The command list is checked first, then the image handles, never images.

static ze_result_t image_copy(ze_command_list_handle_t hCommandList) {
    ZE_MOCK_CHECK_COMMAND_LIST(hCommandList);
    return ze_mock_refuse_handle(ZE_MOCK_FAMILY_IMAGES, "image");
}

static ze_result_t ZE_APICALL mock_CommandListAppendImageCopy(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
    ze_image_handle_t hSrcImage, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendImageCopy);
    (void)hDstImage, (void)hSrcImage, (void)hSignalEvent;
    (void)numWaitEvents, (void)phWaitEvents;
    return image_copy(hCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListAppendImageCopyRegion(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
    ze_image_handle_t hSrcImage, const ze_image_region_t *pDstRegion,
    const ze_image_region_t *pSrcRegion, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendImageCopyRegion);
    (void)hDstImage, (void)hSrcImage, (void)pDstRegion, (void)pSrcRegion;
    (void)hSignalEvent, (void)numWaitEvents, (void)phWaitEvents;
    return image_copy(hCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListAppendImageCopyToMemory(
    ze_command_list_handle_t hCommandList, void *dstptr,
    ze_image_handle_t hSrcImage, const ze_image_region_t *pSrcRegion,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendImageCopyToMemory);
    (void)dstptr, (void)hSrcImage, (void)pSrcRegion, (void)hSignalEvent;
    (void)numWaitEvents, (void)phWaitEvents;
    return image_copy(hCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListAppendImageCopyFromMemory(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
    const void *srcptr, const ze_image_region_t *pDstRegion,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendImageCopyFromMemory);
    (void)hDstImage, (void)srcptr, (void)pDstRegion, (void)hSignalEvent;
    (void)numWaitEvents, (void)phWaitEvents;
    return image_copy(hCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListAppendImageCopyToMemoryExt(
    ze_command_list_handle_t hCommandList, void *dstptr,
    ze_image_handle_t hSrcImage, const ze_image_region_t *pSrcRegion,
    uint32_t destRowPitch, uint32_t destSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendImageCopyToMemoryExt);
    (void)dstptr, (void)hSrcImage, (void)pSrcRegion, (void)destRowPitch;
    (void)destSlicePitch, (void)hSignalEvent, (void)numWaitEvents;
    (void)phWaitEvents;
    return image_copy(hCommandList);
}

static ze_result_t ZE_APICALL mock_CommandListAppendImageCopyFromMemoryExt(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
    const void *srcptr, const ze_image_region_t *pDstRegion,
    uint32_t srcRowPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    ZE_MOCK_ENTER(zeCommandListAppendImageCopyFromMemoryExt);
    (void)hDstImage, (void)srcptr, (void)pDstRegion, (void)srcRowPitch;
    (void)srcSlicePitch, (void)hSignalEvent, (void)numWaitEvents;
    (void)phWaitEvents;
    return image_copy(hCommandList);
}

void ze_mock_fill_command_list_images(ze_mock_command_list_dditable_t *t) {
    t->v1_4.pfnAppendImageCopy = mock_CommandListAppendImageCopy;
    t->v1_4.pfnAppendImageCopyRegion = mock_CommandListAppendImageCopyRegion;
    t->v1_4.pfnAppendImageCopyToMemory =
        mock_CommandListAppendImageCopyToMemory;
    t->v1_4.pfnAppendImageCopyFromMemory =
        mock_CommandListAppendImageCopyFromMemory;
    t->v1_4.pfnAppendImageCopyToMemoryExt =
        mock_CommandListAppendImageCopyToMemoryExt;
    t->v1_4.pfnAppendImageCopyFromMemoryExt =
        mock_CommandListAppendImageCopyFromMemoryExt;
}

// Residency and pitch
// ---------------------------------------------------------------

static ze_result_t image_residency(ze_context_handle_t hContext,
                                   ze_device_handle_t hDevice) {
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)ctx, (void)dev;
    return ze_mock_refuse_handle(ZE_MOCK_FAMILY_IMAGES, "image");
}

static ze_result_t ZE_APICALL mock_ContextMakeImageResident(
    ze_context_handle_t hContext, ze_device_handle_t hDevice,
    ze_image_handle_t hImage) {
    ZE_MOCK_ENTER(zeContextMakeImageResident);
    (void)hImage;
    return image_residency(hContext, hDevice);
}

static ze_result_t ZE_APICALL
mock_ContextEvictImage(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                       ze_image_handle_t hImage) {
    ZE_MOCK_ENTER(zeContextEvictImage);
    (void)hImage;
    return image_residency(hContext, hDevice);
}

void ze_mock_fill_context_images(ze_context_dditable_t *t) {
    t->pfnMakeImageResident = mock_ContextMakeImageResident;
    t->pfnEvictImage = mock_ContextEvictImage;
}

// Level Zero 1.9 (bindless images): the row pitch of a 2D image.
static ze_result_t ZE_APICALL mock_MemGetPitchFor2dImage(
    ze_context_handle_t hContext, ze_device_handle_t hDevice, size_t imageWidth,
    size_t imageHeight, unsigned int elementSizeInBytes, size_t *rowPitch) {
    ZE_MOCK_ENTER(zeMemGetPitchFor2dImage);
    (void)imageWidth, (void)imageHeight, (void)elementSizeInBytes;
    ZE_MOCK_CONTEXT_OR_FAIL(ctx, hContext);
    ZE_MOCK_DEVICE_OR_FAIL(dev, hDevice);
    (void)ctx, (void)dev;
    ZE_MOCK_CHECK_POINTER(rowPitch);
    return ze_mock_refuse(ZE_MOCK_FAMILY_IMAGES,
                          ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

void ze_mock_fill_mem_images(ze_mock_mem_dditable_t *t) {
    t->pfnGetPitchFor2dImage = mock_MemGetPitchFor2dImage;
}
