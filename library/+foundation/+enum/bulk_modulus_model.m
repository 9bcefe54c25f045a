classdef bulk_modulus_model < int32
% The isothermal bulk modulus model of the isothermal liquid domain
% (foundation.isothermal_liquid.isothermal_liquid, bulk_modulus_model):
% const, a constant bulk modulus; linear, a bulk modulus that grows
% linearly with pressure (beta_gain).
    enumeration
        const(1)
        linear(2)
    end
end
