# form 5 and from_pytorch on real nvFuser (nvfuser_direct 0.2.36+git7e04d26, H200, torch 2.11):
# `source .nvf/activate.sh 210 && python3 probe_extra_inputs.py`; output in output.txt beside it.
import torch
from nvfuser_direct import FusionDefinition as F, DataType as D
def mk():
    with F() as fd:
        t=fd.define_tensor(shape=[-1,-1],contiguity=[True,True],dtype=D.Float);fd.add_output(fd.ops.exp(t))
    return fd
x,y=torch.randn(4,8,device="cuda"),torch.randn(4,8,device="cuda")
print("exact",[tuple(o.shape) for o in mk().execute([x])])
for l,i in (("extra tensor",[x,y]),("extra scalar",[x,2.0])):
    try:print(l,"ACCEPTED",[tuple(o.shape) for o in mk().execute(i)])
    except Exception as e:
        s=str(e);print(l,type(e).__name__,s.strip().splitlines()[0][:250]);print("  ",[k for k in s.splitlines() if "runtime_info" in k or "Expected" in k][:3])
fd=mk();fd.execute([x])
try:fd.execute([x,y]);print("cached+extra ACCEPTED")
except Exception as e:print("cached+extra",type(e).__name__,str(e).strip().splitlines()[0][:250])
w=torch.randn(8,4,device="cuda").t()
with F() as fd:
    a=fd.from_pytorch(w);fd.add_output(fd.ops.neg(a))
print("from_pytorch",torch.equal(fd.execute([w])[0],-w))
try:fd.execute([torch.randn(4,8,device="cuda")]);print("other layout ACCEPTED")
except Exception as e:print("other layout",type(e).__name__,str(e).strip().splitlines()[0][:200])
