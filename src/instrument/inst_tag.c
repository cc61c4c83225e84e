/*
 * inst_tag.c - names a prepared module's goals on its instructions, so that
 * a copy transformed further (functions inlined: a tag follows every clone
 * of its instruction) still says which goal each branch and error call is.
 * The ids come from the one walk (inst_sites.h), as in every binary.
 */
#include <string.h>

#include "inst_sites.h"
#include "instrument.h"

/* Puts tag `id` on instruction inst under kind `kind`. */
static void tag(LLVMContextRef cx, unsigned kind, LLVMValueRef inst, uint32_t id)
{
    LLVMMetadataRef v = LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(cx), id, 0));
    LLVMSetMetadata(inst, kind, LLVMMetadataAsValue(cx, LLVMMDNodeInContext2(cx, &v, 1)));
}

bool inst_tag_sites(LLVMModuleRef m, ctg_err *e)
{
    inst_walk w = {0};
    if (!inst_walk_module(m, &w, e)) {
        inst_walk_release(&w);
        return false;
    }
    LLVMContextRef cx = LLVMGetModuleContext(m);
    unsigned kind = LLVMGetMDKindIDInContext(cx, INST_SITE_MD, (unsigned)strlen(INST_SITE_MD));
    for (size_t i = 0; i < w.n_sites; i++) {
        const inst_site *s = &w.sites[i];
        if (s->kind == SITE_BR || s->kind == SITE_SWITCH)
            tag(cx, kind, s->inst, s->first_edge);
        else if (s->kind == SITE_ERROR)
            tag(cx, kind, s->inst, w.n_edges + s->error_site);
    }
    inst_walk_release(&w);
    return true;
}

bool inst_site_tag(LLVMValueRef inst, uint32_t *id)
{
    LLVMContextRef cx = LLVMGetModuleContext(
        LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst))));
    unsigned kind = LLVMGetMDKindIDInContext(cx, INST_SITE_MD, (unsigned)strlen(INST_SITE_MD));
    LLVMValueRef md = LLVMGetMetadata(inst, kind);
    if (!md)
        return false;
    LLVMValueRef v = LLVMGetOperand(md, 0);
    if (!v || !LLVMIsAConstantInt(v))
        return false;
    *id = (uint32_t)LLVMConstIntGetZExtValue(v);
    return true;
}
